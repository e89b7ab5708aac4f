package browsertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
)

// errNoChromium means no browser is installed, which skips rather than fails
// outside CI.
var errNoChromium = errors.New("no Chromium found (CHROMIUM_PATH unset; none of chromium, chromium-browser, google-chrome on PATH)")

// findChromium returns the browser to run. A CHROMIUM_PATH that points
// nowhere is a configuration mistake, not a missing browser, so it is an
// error of its own.
func findChromium() (string, error) {
	if p := os.Getenv("CHROMIUM_PATH"); p != "" {
		path, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("CHROMIUM_PATH=%q is not an executable: %w", p, err)
		}
		return path, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errNoChromium
}

// flags are what a headless Chromium needs on a machine without internet and
// possibly as root: without the background-networking flags it keeps trying
// to reach Google and floods the log with refused connections.
func flags(path string) []chromedp.ExecAllocatorOption {
	opts := append([]chromedp.ExecAllocatorOption{}, chromedp.DefaultExecAllocatorOptions[:]...)
	return append(opts,
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(windowWidth, windowHeight),
		// No UserDataDir: the allocator makes a fresh temporary profile and
		// removes it when the browser closes.
	)
}

// sharedBrowser is the one Chromium of the test binary, started by the first
// test that needs it.
type sharedBrowser struct {
	mu          sync.Mutex
	ctx         context.Context
	cancelCtx   context.CancelFunc
	cancelAlloc context.CancelFunc
	err         error
}

var shared sharedBrowser

// get returns the browser's root context, starting Chromium on first use. A
// failed start is remembered so every later test fails fast with the reason.
func (s *sharedBrowser) get(path string) (context.Context, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx != nil || s.err != nil {
		return s.ctx, s.err
	}
	var err error
	for range startTries {
		ctx, cancelCtx, cancelAlloc, e := start(path)
		if e == nil {
			s.ctx, s.cancelCtx, s.cancelAlloc = ctx, cancelCtx, cancelAlloc
			return ctx, nil
		}
		err = errors.Join(err, e)
	}
	s.err = err
	return nil, err
}

// start starts one Chromium. The first Do binds the browser's life to its
// context, so it cannot carry a timeout; a timer kills a start that hangs
// instead.
func start(path string) (context.Context, context.CancelFunc, context.CancelFunc, error) {
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), flags(path)...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	timer := time.AfterFunc(startTimeout, cancelAlloc)
	err := chromedp.Do(ctx)
	if !timer.Stop() {
		err = fmt.Errorf("no browser after %s: %w", startTimeout, err)
	}
	if err != nil {
		cancelCtx()
		cancelAlloc()
		return nil, nil, nil, err
	}
	return ctx, cancelCtx, cancelAlloc, nil
}

// close shuts Chromium down gracefully so its temporary profile is removed.
func (s *sharedBrowser) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx == nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, cleanupTimeout)
	defer cancel()
	_ = chromedp.Cancel(ctx)
	s.cancelCtx()
	s.cancelAlloc()
	s.ctx = nil
}
