package main

import (
	"io"
	"log/slog"
	"net/url"
	"strings"
)

// minRedacted is the shortest secret replaced in log lines: shorter ones
// would mangle ordinary words, and no real password is that short.
const minRedacted = 6

// newLogger is the process's logger in LOG_FORMAT and LOG_LEVEL. Every
// line, whatever logged it: durations written as "1.5s" (JSON would write
// nanoseconds), and each secret of the config (SESSION_SECRET, the
// passwords inside UPSTREAM_URL, DATABASE_URL and REDIS_URL) replaced by
// "[redacted]" wherever it appears.
func newLogger(cfg config, w io.Writer) *slog.Logger {
	secrets := secretsOf(cfg)
	opts := &slog.HandlerOptions{Level: cfg.LogLevel, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		switch a.Value.Kind() {
		case slog.KindDuration:
			return slog.String(a.Key, a.Value.Duration().String())
		case slog.KindString:
			if s := redact(a.Value.String(), secrets); s != a.Value.String() {
				return slog.String(a.Key, s)
			}
		case slog.KindAny:
			if err, ok := a.Value.Any().(error); ok {
				return slog.String(a.Key, redact(err.Error(), secrets))
			}
		}
		return a
	}}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if cfg.LogFormat == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(outputHandler{h, w})
}

// outputHandler remembers where the lines go, for loggers made from this
// one (the stand-in's).
type outputHandler struct {
	slog.Handler
	w io.Writer
}

// WithAttrs keeps the output beside the handler.
func (o outputHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return outputHandler{o.Handler.WithAttrs(attrs), o.w}
}

// WithGroup keeps the output beside the handler.
func (o outputHandler) WithGroup(name string) slog.Handler {
	return outputHandler{o.Handler.WithGroup(name), o.w}
}

// logOutput is where log's lines go.
func logOutput(log *slog.Logger) io.Writer {
	if o, ok := log.Handler().(outputHandler); ok {
		return o.w
	}
	return io.Discard
}

// bootLogger logs before the config is read (its errors): JSON when
// LOG_FORMAT or -log-format asks for it, even if another setting is wrong.
func bootLogger(args []string, getenv func(string) string, w io.Writer) *slog.Logger {
	format := getenv("LOG_FORMAT")
	for i, a := range args {
		switch {
		case a == "-log-format" || a == "--log-format":
			if i+1 < len(args) {
				format = args[i+1]
			}
		case strings.HasPrefix(a, "-log-format=") || strings.HasPrefix(a, "--log-format="):
			_, format, _ = strings.Cut(a, "=")
		}
	}
	if strings.TrimSpace(format) != "json" {
		format = "text"
	}
	return newLogger(config{LogFormat: format}, w)
}

// secretsOf lists the config's secret strings worth redacting.
func secretsOf(cfg config) []string {
	var out []string
	add := func(s string) {
		if len(s) >= minRedacted {
			out = append(out, s)
		}
	}
	for _, s := range cfg.SessionSecrets {
		add(s)
	}
	for _, raw := range []string{cfg.UpstreamURL, cfg.DatabaseURL, cfg.RedisURL} {
		if u, err := url.Parse(raw); err == nil && u.User != nil {
			if p, ok := u.User.Password(); ok {
				add(p)
				add(url.QueryEscape(p))
			}
		}
	}
	return out
}

func redact(s string, secrets []string) string {
	for _, secret := range secrets {
		s = strings.ReplaceAll(s, secret, "[redacted]")
	}
	return s
}
