package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// proc is a child process the bench started: the stand-in or the dashboard.
type proc struct {
	name string
	cmd  *exec.Cmd
	url  string // http://127.0.0.1:port
	done chan struct{}
	err  error       // set when done closes
	tail *tailBuffer // the end of its stderr, shown when it fails
}

// freeAddr asks the kernel for a loopback port nobody listens on. Another
// program could take it before the child binds it; on a bench machine that
// race is remote enough.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// start runs bin with args and extra environment, its stdout dropped (a
// banner) and its stderr kept in a short buffer, copied to passTo when
// that is not nil.
func start(name, bin string, args, env []string, passTo io.Writer) (*proc, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	tail := &tailBuffer{max: 16 << 10}
	cmd.Stderr = tail
	if passTo != nil {
		cmd.Stderr = io.MultiWriter(tail, prefixWriter{prefix: name + ": ", w: passTo})
	}
	// Its own process group: Ctrl+C reaches the bench alone, which then
	// stops the children in order instead of racing their own shutdown.
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: start %s: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, done: make(chan struct{}), tail: tail}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// pid is the child's process id, for /proc.
func (p *proc) pid() int { return p.cmd.Process.Pid }

// waitHTTP polls path until it answers 200, the child exits or the time is up.
func (p *proc) waitHTTP(ctx context.Context, path string, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	client := &http.Client{Timeout: time.Second}
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.url+path, nil)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.done:
			return fmt.Errorf("bench: %s exited before it was ready (%v):\n%s", p.name, p.err, p.tail)
		case <-ctx.Done():
			return fmt.Errorf("bench: %s not ready at %s%s within %v:\n%s", p.name, p.url, path, limit, p.tail)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// stop asks the child to shut down (SIGTERM) and kills it if it has not
// within a few seconds. It is safe to call more than once.
func (p *proc) stop() {
	if p == nil {
		return
	}
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// failed reports an unexpected exit with the end of the child's stderr.
func (p *proc) failed() error {
	select {
	case <-p.done:
		return fmt.Errorf("bench: %s exited (%v):\n%s", p.name, p.err, p.tail)
	default:
		return nil
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.buf))
}

// prefixWriter marks each line a child writes with its name.
type prefixWriter struct {
	prefix string
	w      io.Writer
}

func (p prefixWriter) Write(b []byte) (int, error) {
	lines := strings.SplitAfter(string(b), "\n")
	var out strings.Builder
	for _, l := range lines {
		if l != "" {
			out.WriteString(p.prefix + l)
		}
	}
	if _, err := io.WriteString(p.w, out.String()); err != nil {
		return 0, err
	}
	return len(b), nil
}

// errStopped is returned when Ctrl+C ended the run.
var errStopped = errors.New("bench: stopped")
