// Package redistest gives tests a real Redis: the one scripts/test-redis.sh
// started (CREDITDASH_TEST_REDIS), or a redis-server process of the test's
// own, to stop and start again. Without Redis the tests skip, unless
// REDIS_TESTS=require (make test), where they fail.
package redistest

import (
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// missing skips or fails the test, as REDIS_TESTS says.
func missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("REDIS_TESTS") == "require" {
		t.Fatalf("%s (REDIS_TESTS=require; run under scripts/test-redis.sh)", why)
	}
	t.Skip(why)
}

// URL is the shared test server's URL.
func URL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("CREDITDASH_TEST_REDIS")
	if u == "" {
		missing(t, "CREDITDASH_TEST_REDIS is not set")
	}
	return u
}

// Prefix is a key prefix of the test's own, so tests share one server.
func Prefix(t testing.TB) string {
	return "test:" + strings.ReplaceAll(t.Name(), "/", ".") + ":" + rand.Text()[:8] + ":"
}

// Server is a redis-server process of one test.
type Server struct {
	t    testing.TB
	bin  string
	port int
	dir  string
	cmd  *exec.Cmd
}

// Start runs a redis-server on a free loopback port until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if bin, err = exec.LookPath("valkey-server"); err != nil {
			missing(t, "redis-server is not installed")
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	s := &Server{t: t, bin: bin, port: port, dir: t.TempDir()}
	s.Resume()
	t.Cleanup(s.Stop)
	return s
}

// URL is the server's URL.
func (s *Server) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", s.port) }

// Stop kills the server, as an outage would.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// Resume starts the server again on the same port (empty: nothing is
// saved).
func (s *Server) Resume() {
	s.t.Helper()
	s.cmd = exec.Command(s.bin, "--bind", "127.0.0.1", "--port", fmt.Sprint(s.port), "--dir", s.dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", "")
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	for range 100 {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", s.port))
		if err == nil {
			_ = c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("redis-server did not listen on port %d", s.port)
}
