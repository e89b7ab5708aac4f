package browsertest

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Prefixes of the console lines the harness writes itself.
const (
	flushPrefix = "browsertest-flush-"
	cspPrefix   = "securitypolicyviolation: "
)

// cspWatcher reports every securitypolicyviolation event as a console line.
// It runs in an isolated world before any page script, so the page's CSP
// cannot block it and the page cannot see or disturb it; DOM events reach
// listeners of every world. It logs at debug level so a violation counts
// under NoCSPViolations, while the browser's own "Refused to ..." error for
// it counts under NoConsoleErrors.
const cspWatcher = `document.addEventListener('securitypolicyviolation', (e) => {
	console.debug(` + "`" + cspPrefix + "`" + ` + JSON.stringify({
		directive: e.effectiveDirective,
		blocked: e.blockedURI || '(inline)',
		source: e.sourceFile,
		line: e.lineNumber,
		sample: e.sample,
		disposition: e.disposition,
	}));
}, true);`

// collector keeps the console messages of one tab in the order they came.
type collector struct {
	mu      sync.Mutex
	msgs    []chromedp.ConsoleMessage
	err     error
	waiters map[string]chan struct{}
	seq     atomic.Int64
}

// collect subscribes to the tab's console (calls of the console API,
// uncaught exceptions and the Log domain) until the tab closes.
func collect(tab context.Context) *collector {
	c := &collector{waiters: map[string]chan struct{}{}}
	msgs := chromedp.Console(tab) // subscribed from here on
	go func() {
		for m, err := range msgs {
			if err != nil {
				c.mu.Lock()
				c.err = err
				c.mu.Unlock()
				return
			}
			c.add(m)
		}
	}()
	return c
}

func (c *collector) add(m chromedp.ConsoleMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if strings.HasPrefix(m.Text, flushPrefix) {
		if ch, ok := c.waiters[m.Text]; ok {
			close(ch)
			delete(c.waiters, m.Text)
		}
		return
	}
	c.msgs = append(c.msgs, m)
}

// flush returns once every message the page logged before the call has been
// collected: the events arrive on their own goroutine, so a check right after
// an action could otherwise miss the last ones. It logs a marker and waits to
// see it come back.
func (c *collector) flush(ctx context.Context) error {
	marker := flushPrefix + strconv.FormatInt(c.seq.Add(1), 10)
	seen := make(chan struct{})
	c.mu.Lock()
	if c.err != nil {
		defer c.mu.Unlock()
		return fmt.Errorf("console: %w", c.err)
	}
	c.waiters[marker] = seen
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.waiters, marker)
		c.mu.Unlock()
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void]("console.debug("+strconv.Quote(marker)+")")); err != nil {
		forget()
		return fmt.Errorf("console: %w", err)
	}
	select {
	case <-seen:
		return nil
	case <-ctx.Done():
		forget()
		return fmt.Errorf("console: waiting for messages: %w", ctx.Err())
	}
}

// all is a copy of the messages collected so far.
func (c *collector) all() []chromedp.ConsoleMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]chromedp.ConsoleMessage(nil), c.msgs...)
}

// watchCSP installs cspWatcher for every document the tab loads from now on.
func (b *Browser) watchCSP() error {
	ctx := b.ctx
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source:    cspWatcher,
		WorldName: "browsertest",
	})
	if err != nil {
		return fmt.Errorf("installing the CSP watcher: %w", err)
	}
	return nil
}

// Console returns every console message, uncaught exception and browser log
// entry of the tab so far, in order.
func (b *Browser) Console() []chromedp.ConsoleMessage {
	b.t.Helper()
	ctx := b.ctx
	if err := b.console.flush(ctx); err != nil {
		b.fatalf("%v", err)
	}
	return b.console.all()
}

// NoConsoleErrors fails t listing every console error, failed assertion,
// uncaught exception and error entry of the browser log seen in the tab
// (except a missing /favicon.ico, which the browser asks for on its own).
func (b *Browser) NoConsoleErrors(t testing.TB) {
	t.Helper()
	if bad := b.matching(isError); len(bad) > 0 {
		t.Errorf("browser console has %d error(s):\n\t%s", len(bad), strings.Join(bad, "\n\t"))
	}
}

// NoCSPViolations fails t listing every Content Security Policy violation
// seen in the tab: securitypolicyviolation events and console or log
// messages that name the policy.
func (b *Browser) NoCSPViolations(t testing.TB) {
	t.Helper()
	if bad := b.matching(isCSP); len(bad) > 0 {
		t.Errorf("browser saw %d Content Security Policy violation message(s):\n\t%s", len(bad), strings.Join(bad, "\n\t"))
	}
}

// matching describes the collected messages that keep says to report.
func (b *Browser) matching(keep func(chromedp.ConsoleMessage) bool) []string {
	b.t.Helper()
	var out []string
	for _, m := range b.Console() {
		if keep(m) {
			out = append(out, describe(m))
		}
	}
	return out
}

func isError(m chromedp.ConsoleMessage) bool {
	if isFaviconMiss(m) {
		return false
	}
	switch m.Type {
	case chromedp.ConsoleError, chromedp.ConsoleException, "assert":
		return true
	}
	return false
}

// isFaviconMiss is the browser's own request for /favicon.ico failing. The
// browser sends it after the load event, at a moment no test controls, so
// counting it would make every check flaky. Only that one path is excused:
// an icon the page links anywhere else still counts.
func isFaviconMiss(m chromedp.ConsoleMessage) bool {
	u, err := url.Parse(m.URL)
	return m.Source == "network" && err == nil && u.Path == "/favicon.ico"
}

func isCSP(m chromedp.ConsoleMessage) bool {
	text := strings.ToLower(m.Text)
	return strings.HasPrefix(m.Text, cspPrefix) ||
		strings.Contains(text, "content security policy") ||
		strings.Contains(text, "content-security-policy")
}

// describe is one message as a failure line: type, text and where from.
func describe(m chromedp.ConsoleMessage) string {
	s := m.String()
	if m.Source != "" {
		s = "[" + m.Source + "] " + s
	}
	if m.URL != "" {
		s += fmt.Sprintf(" (%s:%d)", m.URL, m.Line+1)
	}
	return s
}
