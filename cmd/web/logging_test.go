package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// Every line: secrets of the config replaced wherever they appear (a
// message, a string, an error), durations as text.
func TestLoggerRedactsSecretsAndWritesDurations(t *testing.T) {
	cfg := config{LogFormat: "json", UpstreamURL: "https://svc:upstreamPW1@api.example/v1",
		RedisURL: "redis://:redisPW22@cache:6379/0", SessionSecrets: []string{strings.Repeat("z", 40)}}
	var out bytes.Buffer
	log := newLogger(cfg, &out)
	log.Info("calling https://svc:upstreamPW1@api.example/v1", "url", cfg.RedisURL,
		"err", errors.New("dial redis://:redisPW22@cache: refused; key "+strings.Repeat("z", 40)), "took", 1500*time.Millisecond)
	s := out.String()
	for _, secret := range []string{"upstreamPW1", "redisPW22", strings.Repeat("z", 40)} {
		if strings.Contains(s, secret) {
			t.Errorf("the line holds %q: %s", secret, s)
		}
	}
	if !strings.Contains(s, `"took":"1.5s"`) || !strings.Contains(s, "[redacted]") {
		t.Errorf("line %s", s)
	}
	if got := describeService(cfg); strings.Contains(got, "upstreamPW1") {
		t.Errorf("describeService = %q", got)
	}
}
