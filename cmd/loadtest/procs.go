package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// The process handling follows cmd/bench/procs.go; it is repeated here
// rather than shared because a main package cannot be imported, and the
// load tool sends the dashboard's output to a file to count its log bytes.

// proc is a child process the load tool started: the stand-in or a dashboard.
type proc struct {
	name    string
	cmd     *exec.Cmd
	url     string // http://127.0.0.1:port
	logPath string // everything it writes to stdout and stderr
	done    chan struct{}
	err     error // set when done closes
}

// freeAddr asks the kernel for a loopback port nobody listens on. Another
// program could take it before the child binds it; on a test machine that
// race is remote enough.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// start runs bin with args and extra environment, with stdout and stderr
// written to logPath: a file, not
// a pipe, so a child that logs a lot is never slowed by the load tool
// reading it, and its size is the child's log bytes.
func start(name, bin, logPath string, args, env []string) (*proc, error) {
	out, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer out.Close() // the child holds its own copy
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = out, out
	// Its own process group: Ctrl+C reaches the load tool alone, which then
	// stops the children in order instead of racing their own shutdown.
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("loadtest: start %s: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, logPath: logPath, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// pid is the child's process id, for /proc.
func (p *proc) pid() int { return p.cmd.Process.Pid }

// logBytes is how much the child has written so far.
func (p *proc) logBytes() (int64, error) {
	st, err := os.Stat(p.logPath)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// tail is the end of the child's output, shown when it fails.
func (p *proc) tail() string {
	f, err := os.Open(p.logPath)
	if err != nil {
		return ""
	}
	defer f.Close()
	const max = 8 << 10
	if st, err := f.Stat(); err == nil && st.Size() > max {
		_, _ = f.Seek(-max, io.SeekEnd)
	}
	b, _ := io.ReadAll(io.LimitReader(f, max))
	return string(b)
}

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
			return fmt.Errorf("loadtest: %s exited before it was ready (%v):\n%s", p.name, p.err, p.tail())
		case <-ctx.Done():
			return fmt.Errorf("loadtest: %s not ready at %s%s within %v:\n%s", p.name, p.url, path, limit, p.tail())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// stop asks the child to shut down (SIGTERM) and kills it if it has not
// within a few seconds. It is safe to call more than once, and on nil.
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

// failed reports an unexpected exit with the end of the child's output.
func (p *proc) failed() error {
	select {
	case <-p.done:
		return fmt.Errorf("loadtest: %s exited (%v):\n%s", p.name, p.err, p.tail())
	default:
		return nil
	}
}

// errStopped is returned when Ctrl+C ended the run.
var errStopped = errors.New("loadtest: stopped")
