package figures

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Child is a program a measuring tool started on loopback (the stand-in or
// the dashboard), its whole output in a log file of its own.
type Child struct {
	Name    string
	URL     string // http://127.0.0.1:port, set by the caller that chose the port
	LogPath string // everything it writes to stdout and stderr
	cmd     *exec.Cmd
	done    chan struct{}
	err     error // set when done closes
}

// FreeAddr asks the kernel for a loopback port nobody listens on. Another
// program could take it before the child binds it; on a test machine that
// race is remote enough.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// Start runs bin with args and extra environment, its stdout and stderr
// written to logPath. A file, not a pipe: a child that logs a lot is never
// slowed by the tool reading it, and the file's size is its log bytes.
// When echo is not nil the output is copied there too, each line marked
// with the child's name.
func Start(name, bin, logPath string, args, env []string, echo io.Writer) (*Child, error) {
	out, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = out, out
	if echo != nil {
		// Copied through a pipe that Wait drains, so the file stays open
		// until the child is gone.
		w := io.MultiWriter(out, PrefixWriter{Prefix: name + ": ", W: echo})
		cmd.Stdout, cmd.Stderr = w, w
	}
	// Its own process group: Ctrl+C reaches the tool alone, which then
	// stops the children in order instead of racing their own shutdown.
	cmd.SysProcAttr = ChildAttr(syscall.SIGKILL)
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, fmt.Errorf("figures: start %s: %w", name, err)
	}
	if echo == nil {
		out.Close() // the child holds its own copy
	}
	c := &Child{Name: name, LogPath: logPath, cmd: cmd, done: make(chan struct{})}
	go func() {
		c.err = cmd.Wait()
		if echo != nil {
			out.Close()
		}
		close(c.done)
	}()
	return c, nil
}

// PID is the child's process id, for /proc.
func (c *Child) PID() int { return c.cmd.Process.Pid }

// LogBytes is how much the child has written so far.
func (c *Child) LogBytes() (int64, error) {
	st, err := os.Stat(c.LogPath)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// Tail is the end of the child's output, shown when it fails.
func (c *Child) Tail() string {
	f, err := os.Open(c.LogPath)
	if err != nil {
		return ""
	}
	defer f.Close()
	const max = 8 << 10
	if st, err := f.Stat(); err == nil && st.Size() > max {
		_, _ = f.Seek(-max, io.SeekEnd)
	}
	b, _ := io.ReadAll(io.LimitReader(f, max))
	return strings.TrimSpace(string(b))
}

// WaitHTTP polls path until it answers 200, the child exits or the time is up.
func (c *Child) WaitHTTP(ctx context.Context, path string, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	client := &http.Client{Timeout: time.Second}
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.URL+path, nil)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-c.done:
			return fmt.Errorf("figures: %s exited before it was ready (%v):\n%s", c.Name, c.err, c.Tail())
		case <-ctx.Done():
			return fmt.Errorf("figures: %s not ready at %s%s within %v:\n%s", c.Name, c.URL, path, limit, c.Tail())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Stop asks the child to shut down (SIGTERM) and kills it if it has not
// within a few seconds. It is safe to call more than once, and on nil.
func (c *Child) Stop() {
	if c == nil {
		return
	}
	select {
	case <-c.done:
		return
	default:
	}
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.done
	}
}

// Failed reports an unexpected exit with the end of the child's output.
func (c *Child) Failed() error {
	select {
	case <-c.done:
		return fmt.Errorf("figures: %s exited (%v):\n%s", c.Name, c.err, c.Tail())
	default:
		return nil
	}
}

// PrefixWriter marks each line written through it with Prefix.
type PrefixWriter struct {
	Prefix string
	W      io.Writer
}

// Write writes b to W, each of its lines after Prefix.
func (p PrefixWriter) Write(b []byte) (int, error) {
	var out strings.Builder
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if l != "" {
			out.WriteString(p.Prefix + l)
		}
	}
	if _, err := io.WriteString(p.W, out.String()); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Dashboard says how to start bin/web for a measurement.
type Dashboard struct {
	Name, Bin string
	LogPath   string    // its output; its workspace goes beside it
	Env       []string  // settings beyond the address and the workspace
	Ready     string    // the path that answers 200 once it serves
	Echo      io.Writer // where its output is also copied, or nil
}

// StartDashboard runs the dashboard on a free loopback port with a
// workspace of its own beside its log (a run neither reads nor grows the
// developer's demo workspace) and waits up to 30 s for d.Ready.
func StartDashboard(ctx context.Context, d Dashboard) (*Child, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	env := append([]string{
		"LISTEN_ADDR=" + addr,
		"DATA_DIR=" + strings.TrimSuffix(d.LogPath, ".log") + "-data",
		"DATABASE_URL=",
	}, d.Env...)
	web, err := Start(d.Name, d.Bin, d.LogPath, nil, env, d.Echo)
	if err != nil {
		return nil, err
	}
	web.URL = "http://" + addr
	if err := web.WaitHTTP(ctx, d.Ready, 30*time.Second); err != nil {
		web.Stop()
		return nil, err
	}
	return web, nil
}
