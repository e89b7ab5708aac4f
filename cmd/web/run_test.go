package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"creditdash/internal/apptest"
)

// syncBuffer collects the log lines of a run in progress.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// The whole process: PostgreSQL down at start starts it degraded (reports
// work, workspace pages say the workspace is unavailable, /readyz is 200
// "degraded"); a stop drains and exits 0; with LOG_FORMAT=json every line
// from the first to the last is JSON, durations are readable and the
// database password is never written.
func TestRunStartsDegradedAndStopsCleanlyInJSON(t *testing.T) {
	const password = "topsecretpw"
	var stdout, stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	getenv := env(map[string]string{
		"LISTEN_ADDR": "127.0.0.1:0", "LOG_FORMAT": "json", "COOKIE_SECURE": "false", "SHUTDOWN_GRACE": "2s",
		"DATABASE_URL": "postgres://creditdash:" + password + "@" + closedPort(t) + "/creditdash?sslmode=disable",
		"DATA_DIR":     t.TempDir(),
	})
	done := make(chan int, 1)
	go func() { done <- run(ctx, nil, getenv, &stdout, &stderr) }()

	addr := ""
	for deadline := time.Now().Add(20 * time.Second); addr == "" && time.Now().Before(deadline); {
		select {
		case code := <-done:
			t.Fatalf("run exited %d:\n%s", code, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		for _, line := range strings.Split(stderr.String(), "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == "listening" {
				addr, _ = rec["addr"].(string)
			}
		}
	}
	if addr == "" {
		t.Fatalf("no listening line:\n%s", stderr.String())
	}
	front := &apptest.App{URL: "http://" + addr}
	u := front.NewUser(t)
	if p := u.Login("demo", "demo", ""); p.Status != http.StatusSeeOther {
		t.Fatalf("sign-in: status %d", p.Status)
	}
	if p := u.Get("/businesses/1001"); p.Status != http.StatusOK {
		t.Errorf("a report with the database down at start: status %d", p.Status)
	}
	if p := u.Get("/watchlist"); p.Status != http.StatusServiceUnavailable {
		t.Errorf("the watch list with the database down at start: status %d, want 503", p.Status)
	}
	if p := u.Get("/readyz"); p.Status != http.StatusOK || !strings.Contains(p.Body, "degraded") {
		t.Errorf("/readyz: %d %q; want 200 degraded", p.Status, p.Body)
	}

	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after a stop, want 0", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop within 10 s")
	}
	if stdout.String() != "" {
		t.Errorf("JSON mode wrote plain text to stdout: %q", stdout.String())
	}
	logs := stderr.String()
	sc := bufio.NewScanner(strings.NewReader(logs))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Errorf("line %d is not JSON: %s", n, sc.Text())
		}
		if d, ok := rec["duration"]; ok {
			if _, isText := d.(string); !isText {
				t.Errorf("line %d: duration %v is not readable text", n, d)
			}
		}
	}
	for _, want := range []string{"the workspace database is unavailable", "stopping: /readyz answers 503", "stopped: everything in flight finished"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	if strings.Contains(logs, password) {
		t.Error("the database password is in the log")
	}
}

// A configuration error is a JSON line too when LOG_FORMAT=json, exit 2.
func TestConfigErrorIsLoggedInJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), nil, env(map[string]string{"LOG_FORMAT": "json", "LISTEN_ADDR": "nope"}), &stdout, &stderr)
	var rec map[string]any
	if code != 2 || json.Unmarshal(bytes.TrimSpace(stderr.Bytes()), &rec) != nil || !strings.Contains(rec["err"].(string), "LISTEN_ADDR") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}
