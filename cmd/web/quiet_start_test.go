package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestQuietStartAtInfo: a fresh demo start writes nothing at info level
// before its "listening" line (no line per migration, none of River's,
// no store or roles chatter); only warnings, which the demo has, come
// first.
func TestQuietStartAtInfo(t *testing.T) {
	var stdout, stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	getenv := env(map[string]string{"LISTEN_ADDR": "127.0.0.1:0", "LOG_FORMAT": "json", "DATA_DIR": t.TempDir(), "SHUTDOWN_GRACE": "1s"})
	done := make(chan int, 1)
	go func() { done <- run(ctx, nil, getenv, &stdout, &stderr) }()
	var before []map[string]any
	listening := false
	for deadline := time.Now().Add(30 * time.Second); !listening && time.Now().Before(deadline); {
		select {
		case code := <-done:
			t.Fatalf("run exited %d:\n%s", code, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		before = before[:0]
		for _, line := range strings.Split(stderr.String(), "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) != nil {
				continue
			}
			if rec["msg"] == "listening" {
				listening = true
				break
			}
			before = append(before, rec)
		}
	}
	cancel()
	<-done
	if !listening {
		t.Fatalf("no listening line:\n%s", stderr.String())
	}
	for _, rec := range before {
		if rec["level"] != "WARN" && rec["level"] != "ERROR" {
			t.Errorf("before listening, at %v: %v", rec["level"], rec["msg"])
		}
	}
}
