// Package browsertest drives a headless Chromium with chromedp for tests of
// what only a browser shows: navigation and redirects, scripts that run under
// the CSP, charts drawn, downloads.
//
// One Chromium process serves the whole test binary; every test gets its own
// tab in a fresh browser context (like an incognito window), so cookies and
// storage never leak between tests, and tests may run in parallel. A package
// that uses the harness calls Main from its TestMain so the browser is closed
// and its profile removed when the tests end:
//
//	func TestMain(m *testing.M) { browsertest.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		app := apptest.Start(t, apptest.Options{})
//		b := browsertest.Start(t)
//		b.Navigate(app.URL + "/login")
//		b.Fill("#username", "demo")
//		...
//		b.NoConsoleErrors(t)
//	}
//
// Helpers fail the test (t.Fatal) when the browser cannot do what they ask,
// after saving a screenshot named after the test with the suffix "-failed".
// A screenshot of the last state is saved at the end of every test. Both go
// to testdata/screenshots/ at the repository root, which git ignores.
//
// Chromium is found through CHROMIUM_PATH, then chromium, chromium-browser or
// google-chrome on PATH. Without one the tests skip, unless BROWSER_TESTS is
// "require" (make test and CI set it), where they fail.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"creditdash/static"
)

// Timeouts bound every test so a hung page fails the test instead of
// blocking CI until the go test timeout.
const (
	// TestTimeout is how long one test may drive its tab in total. Every
	// step (a navigation, a click, a wait for what the test checks) runs
	// until this deadline, never one of its own: on two cores busy with the
	// rest of make test a page can take many seconds to show what it will
	// show, and a step's short deadline failed there although the page was
	// right. A page that never gets there fails at this deadline, naming
	// what was waited for.
	TestTimeout = 3 * time.Minute
	// startTimeout bounds one start of Chromium itself. Under a whole
	// make test on two busy cores a first start was seen to take more than
	// 30 s (every test binary compiling and running at once), so a start
	// gets a minute and a second try (startTries).
	startTimeout = 60 * time.Second
	startTries   = 2
	// cleanupTimeout bounds the last screenshot and closing the tab, which
	// run after the test's own deadline may have passed.
	cleanupTimeout = 10 * time.Second
)

// Window size fixed so screenshots and chart layouts do not depend on the
// machine.
const (
	windowWidth  = 1280
	windowHeight = 900
)

// Browser is one test's tab in its own browser context.
type Browser struct {
	t testing.TB
	// tab is the tab's chromedp context; it lives until the test's cleanup.
	tab context.Context
	// ctx is tab with the test's deadline; every helper derives from it.
	ctx     context.Context
	console *collector
	// shots is the screenshot folder, created on first use.
	shots string
	// dlDir receives downloads once Download has allowed them.
	dlDir string
}

// Main runs the tests of a package that uses the harness and then closes the
// shared browser; call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	shared.close()
	os.Exit(code)
}

// echartsBuilt reports, once per test binary, whether the ECharts bundle is
// embedded.
var echartsBuilt = sync.OnceValue(func() bool {
	assets, err := static.Load()
	return err == nil && assets.Has("vendor/echarts.min.js")
})

// Start opens a fresh tab for the test, skipping or failing the test when no
// Chromium is available (see the package documentation).
func Start(t testing.TB) *Browser {
	t.Helper()
	path, err := findChromium()
	if errors.Is(err, errNoChromium) {
		if os.Getenv("BROWSER_TESTS") == "require" {
			t.Fatalf("browser tests are required (BROWSER_TESTS=require) but %v; install it with: apt-get install -y --no-install-recommends chromium fonts-liberation", err)
		}
		t.Skipf("skipping browser test: %v (set BROWSER_TESTS=require to fail instead)", err)
	}
	if err != nil {
		t.Fatalf("browsertest: %v", err)
	}
	// The pages draw their charts with the ECharts bundle that make assets
	// builds; without it a plain go test on a fresh clone skips.
	if !echartsBuilt() {
		if os.Getenv("BROWSER_TESTS") == "require" {
			t.Fatal("browser tests are required (BROWSER_TESTS=require) but the ECharts bundle is not built: run make assets")
		}
		t.Skip("skipping browser test: the ECharts bundle is not built: run make assets (make test does)")
	}
	root, err := shared.get(path)
	if err != nil {
		t.Fatalf("browsertest: starting %s: %v", path, err)
	}

	// A new browser context per test keeps cookies and storage apart; the
	// tab's first Do creates it and binds the tab's life to tab.
	tab, closeTab := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	startCtx, cancelStart := context.WithTimeout(tab, startTimeout)
	defer cancelStart()
	if err := startTab(tab, startCtx); err != nil {
		closeTab()
		t.Fatalf("browsertest: opening a tab: %v", err)
	}
	deadline := time.Now().Add(TestTimeout)
	if d, ok := testDeadline(t); ok && d.Before(deadline) {
		deadline = d
	}
	ctx, cancel := context.WithDeadline(tab, deadline)
	b := &Browser{t: t, tab: tab, ctx: ctx, console: collect(tab)}
	b.removeShot("failed")
	t.Cleanup(func() {
		b.finish()
		cancel()
		closeTab()
	})
	if err := b.watchCSP(); err != nil {
		t.Fatalf("browsertest: %v", err)
	}
	return b
}

// startTab creates the tab with tab as its lifetime while startCtx bounds
// how long the creation may take.
func startTab(tab, startCtx context.Context) error {
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(tab) }()
	select {
	case err := <-done:
		return err
	case <-startCtx.Done():
		return fmt.Errorf("no tab after %s: %w", startTimeout, startCtx.Err())
	}
}

// testDeadline is the go test -timeout deadline less a margin for cleanup.
func testDeadline(t testing.TB) (time.Time, bool) {
	dt, ok := t.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return time.Time{}, false
	}
	d, ok := dt.Deadline()
	return d.Add(-cleanupTimeout), ok
}

// finish records the end state: console on failure, the last screenshot.
func (b *Browser) finish() {
	ctx, cancel := context.WithTimeout(b.tab, cleanupTimeout)
	defer cancel()
	// Best effort: a crashed tab still gets its failure reported by the test.
	_ = b.console.flush(ctx)
	if b.t.Failed() {
		if url, err := chromedp.Run(ctx, chromedp.Location()); err == nil {
			b.t.Logf("browser was at %s", url)
		}
		for _, m := range b.console.all() {
			b.t.Logf("console %s", describe(m))
		}
	}
	b.saveShot(ctx, "")
}

// Context is the tab's context with the test deadline, for chromedp actions
// the helpers do not cover: chromedp.Run(b.Context(), ...).
func (b *Browser) Context() context.Context { return b.ctx }
