package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"creditdash/internal/shared/redistest"
)

// startRun runs the dashboard in demo mode with vars added, and returns
// the public and the operators' addresses; it is stopped when the test ends.
func startRun(t *testing.T, vars map[string]string) (public, ops string) {
	t.Helper()
	public, ops, _ = startRunLogged(t, vars)
	return public, ops
}

// startRunLogged is startRun, with the run's log.
func startRunLogged(t *testing.T, vars map[string]string) (public, ops string, logs *syncBuffer) {
	t.Helper()
	m := map[string]string{"LISTEN_ADDR": "127.0.0.1:0", "METRICS_ADDR": "127.0.0.1:0", "LOG_FORMAT": "json",
		"COOKIE_SECURE": "false", "SHUTDOWN_GRACE": "1s", "DATA_DIR": t.TempDir()}
	for k, v := range vars {
		m[k] = v
	}
	stderr := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- run(ctx, nil, env(m), io.Discard, stderr) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("run did not stop")
		}
	})
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		select {
		case code := <-done:
			done <- code
			t.Fatalf("run exited %d:\n%s", code, stderr.String())
		default:
		}
		for _, line := range strings.Split(stderr.String(), "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) != nil {
				continue
			}
			switch rec["msg"] {
			case "listening":
				public, _ = rec["addr"].(string)
			case "operators' listener: /metrics and /status":
				ops, _ = rec["addr"].(string)
			}
		}
		if public != "" && ops != "" {
			return public, ops, stderr
		}
	}
	t.Fatalf("the run did not say where it listens:\n%s", stderr.String())
	return "", "", nil
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// The operator page is on METRICS_ADDR's listener only: version, the
// service's reachability and latency, the database, replicas, quota
// refusals; the public listener does not have it.
func TestOperatorPage(t *testing.T) {
	public, ops := startRun(t, nil)
	code, body := get(t, "http://"+ops+"/status")
	if code != http.StatusOK {
		t.Fatalf("/status: %d", code)
	}
	for _, want := range []string{"Version dev (revision", "the credit-risk service", "answered in", "the workspace database",
		"the workspace database&#39;s file", "No shared store", "Quota refusals in the last hour", "Ready", "built-in stand-in with demo data", "sqlite in "} {
		if !strings.Contains(body, want) {
			t.Errorf("/status lacks %q", want)
		}
	}
	if code, body := get(t, "http://"+ops+"/metrics"); code != http.StatusOK || !strings.Contains(body, `creditdash_build_info{go_version=`) ||
		!strings.Contains(body, `creditdash_dependency_up{dependency="service"} 1`) {
		t.Errorf("/metrics: %d, build info or service up missing", code)
	}
	for _, path := range []string{"/status", "/metrics"} {
		if _, body := get(t, "http://"+public+path); strings.Contains(body, "CreditDash status") || strings.Contains(body, "creditdash_build_info") {
			t.Errorf("the public listener serves %s", path)
		}
	}
}

// Go's profiles are served on the operators' listener only under PPROF,
// and never on the public one.
func TestPprofOnlyWhenAsked(t *testing.T) {
	_, ops := startRun(t, nil)
	for _, path := range []string{"/debug/pprof/heap", "/debug/pprof/profile?seconds=1"} {
		if code, _ := get(t, "http://"+ops+path); code != http.StatusNotFound {
			t.Errorf("without PPROF, %s: %d, want 404", path, code)
		}
	}
	public, ops := startRun(t, map[string]string{"PPROF": "true"})
	for _, path := range []string{"/debug/pprof/heap", "/debug/pprof/profile?seconds=1"} {
		// A profile is gzipped protocol buffers.
		if code, body := get(t, "http://"+ops+path); code != http.StatusOK || !strings.HasPrefix(body, "\x1f\x8b") {
			t.Errorf("with PPROF, %s: %d, %d bytes", path, code, len(body))
		}
		if _, body := get(t, "http://"+public+path); strings.HasPrefix(body, "\x1f\x8b") {
			t.Errorf("the public listener serves %s", path)
		}
	}
	if code, _ := get(t, "http://"+ops+"/debug/pprof/profile?seconds=x"); code != http.StatusBadRequest {
		t.Errorf("with PPROF, seconds=x: %d, want 400", code)
	}
}

// With a shared store, replicas see each other on the operator page.
func TestOperatorPageCountsReplicas(t *testing.T) {
	url := redistest.URL(t)
	_, ops := startRun(t, map[string]string{"REDIS_URL": url, "DEMO_SEED": "7"})
	startRun(t, map[string]string{"REDIS_URL": url, "DEMO_SEED": "7"})
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, body := get(t, "http://"+ops+"/status")
		if strings.Contains(body, "2 seen in the last minute") {
			if !strings.Contains(body, "the shared store") {
				t.Error("/status lacks the shared store's line")
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/status does not count 2 replicas:\n%s", body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A corrupt SQLite file at start: the dashboard starts (reports need no
// database), /readyz answers 503 so balancers prefer other replicas, and
// the log and the operator page name the file.
func TestCorruptWorkspaceFileMakesTheReplicaUnready(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "creditdash.db")
	if err := os.WriteFile(file, []byte(strings.Repeat("no database here ", 500)), 0o600); err != nil {
		t.Fatal(err)
	}
	public, ops, logs := startRunLogged(t, map[string]string{"DATA_DIR": dir})
	code, body := get(t, "http://"+public+"/readyz")
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "not ready: the workspace database") {
		t.Errorf("/readyz with a corrupt file: %d %q; want 503", code, body)
	}
	if code, _ := get(t, "http://"+public+"/healthz"); code != http.StatusOK {
		t.Errorf("/healthz: %d", code)
	}
	if !strings.Contains(logs.String(), "corrupt") || !strings.Contains(logs.String(), file) {
		t.Errorf("the log does not name the corrupt file %s:\n%s", file, logs.String())
	}
	if _, page := get(t, "http://"+ops+"/status"); !strings.Contains(page, file) || !strings.Contains(page, "Not ready") {
		t.Errorf("/status does not name the corrupt file")
	}
}
