package jobs

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestQuietRiver: River's info lines (its producer's job counts every
// few seconds among them) are written at debug, so an operator at info
// level does not see them; its warnings stay warnings.
func TestQuietRiver(t *testing.T) {
	for _, c := range []struct {
		level slog.Level
		want  []string
	}{
		{slog.LevelInfo, []string{"level=WARN msg=stuck"}},
		{slog.LevelDebug, []string{"level=DEBUG msg=\"producer: Producer job counts\"", "level=WARN msg=stuck"}},
	} {
		var buf bytes.Buffer
		log := quiet(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: c.level})).With("component", "digest"))
		log.Info("producer: Producer job counts", "num_jobs_running", 0)
		log.Warn("stuck")
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		if len(lines) != len(c.want) {
			t.Fatalf("at %s: %d lines %q, want %d", c.level, len(lines), lines, len(c.want))
		}
		for i, w := range c.want {
			if !strings.Contains(lines[i], w) || !strings.Contains(lines[i], "component=digest") {
				t.Errorf("at %s: line %q, want %q with its component", c.level, lines[i], w)
			}
		}
	}
}
