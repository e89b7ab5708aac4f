package jobs

import (
	"context"
	"log/slog"
)

// quiet is River's logger: River tells at info level what an operator
// does not need at that level (each migration applied, the client started
// and stopped, its producer's job counts every few seconds), so its info
// lines are written at debug; its warnings and errors stay as they are.
func quiet(log *slog.Logger) *slog.Logger { return slog.New(demoted{log.Handler()}) }

// demoted writes info records at debug level.
type demoted struct{ h slog.Handler }

func (d demoted) Enabled(ctx context.Context, l slog.Level) bool { return d.h.Enabled(ctx, lower(l)) }

func (d demoted) Handle(ctx context.Context, r slog.Record) error {
	r.Level = lower(r.Level)
	return d.h.Handle(ctx, r)
}

func (d demoted) WithAttrs(as []slog.Attr) slog.Handler { return demoted{d.h.WithAttrs(as)} }

func (d demoted) WithGroup(name string) slog.Handler { return demoted{d.h.WithGroup(name)} }

// lower is the level a River record is written at.
func lower(l slog.Level) slog.Level {
	if l == slog.LevelInfo {
		return slog.LevelDebug
	}
	return l
}
