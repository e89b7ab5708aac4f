package middleware

import (
	"context"
	"log/slog"
	"unicode/utf8"
)

// maxLogValue bounds every text value a log line carries: a path, a user
// name, an error that quotes either. A hostile client must not be able to
// write megabytes into the logs with one long URL.
const maxLogValue = 256

// clipHandler shortens long text values before they reach the real handler.
type clipHandler struct{ next slog.Handler }

func (h clipHandler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h clipHandler) Handle(ctx context.Context, r slog.Record) error {
	var attrs []slog.Attr
	msg, clipped := clipText(r.Message)
	r.Attrs(func(a slog.Attr) bool {
		a, c := clipAttr(a)
		clipped = clipped || c
		attrs = append(attrs, a)
		return true
	})
	if clipped {
		nr := slog.NewRecord(r.Time, r.Level, msg, r.PC)
		nr.AddAttrs(attrs...)
		r = nr
	}
	return h.next.Handle(ctx, r)
}

func (h clipHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	for i := range attrs {
		attrs[i], _ = clipAttr(attrs[i])
	}
	return clipHandler{h.next.WithAttrs(attrs)}
}

func (h clipHandler) WithGroup(name string) slog.Handler { return clipHandler{h.next.WithGroup(name)} }

// clipAttr clips a text value, or any value logged by its text (errors).
func clipAttr(a slog.Attr) (slog.Attr, bool) {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		if s, c := clipText(v.String()); c {
			return slog.String(a.Key, s), true
		}
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			if s, c := clipText(err.Error()); c {
				return slog.String(a.Key, s), true
			}
		}
	case slog.KindGroup:
		group := v.Group()
		out := make([]slog.Attr, len(group))
		clipped := false
		for i, g := range group {
			var c bool
			out[i], c = clipAttr(g)
			clipped = clipped || c
		}
		if clipped {
			return slog.Attr{Key: a.Key, Value: slog.GroupValue(out...)}, true
		}
	}
	return a, false
}

// clipText cuts s to maxLogValue bytes on a rune boundary, marking the cut.
func clipText(s string) (string, bool) {
	if len(s) <= maxLogValue {
		return s, false
	}
	cut := maxLogValue
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…(clipped)", true
}

// ClipLogs is next with every text value a log line carries cut to
// maxLogValue bytes.
func ClipLogs(next slog.Handler) slog.Handler { return clipHandler{next} }
