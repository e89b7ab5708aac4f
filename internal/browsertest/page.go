package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chromedp/chromedp"
)

// step runs actions that return nothing by the test's deadline, failing the
// test with what on error.
func (b *Browser) step(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx := b.ctx
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.fatalf("%s: %v", what, err)
	}
}

// value runs one action that returns a value by the test's deadline.
func value[T any](b *Browser, what string, action chromedp.Action[T]) T {
	b.t.Helper()
	ctx := b.ctx
	v, err := chromedp.Run(ctx, action)
	if err != nil {
		b.fatalf("%s: %v", what, err)
	}
	return v
}

// fatalf saves a "-failed" screenshot of the page as it is now, then fails
// the test.
func (b *Browser) fatalf(format string, args ...any) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.tab, cleanupTimeout)
	defer cancel()
	b.saveShot(ctx, "failed")
	b.t.Fatalf("browser: "+format, args...)
}

// Navigate loads url, waits for the load event and returns the HTTP status
// of the document (after redirects).
func (b *Browser) Navigate(url string) int {
	b.t.Helper()
	resp := value(b, "navigate to "+url, chromedp.NavigateResponse(url))
	if resp == nil {
		return 0
	}
	return int(resp.Status)
}

// URL is the address of the page now shown.
func (b *Browser) URL() string {
	b.t.Helper()
	return value(b, "read the location", chromedp.Location())
}

// Text is the visible text of the first element matching sel, its white
// space collapsed. It waits until the element is there and shows some: on
// a busy machine the watch list's name, never empty on the page, once read
// "" (its table is in a scroll region the stylesheet lays out lazily,
// content-visibility: auto, the likely cause); a moment to wait through,
// not the answer.
func (b *Browser) Text(sel string) string {
	b.t.Helper()
	text := Until(b, "the text of "+sel, `(() => { const el = document.querySelector(`+jsString(sel)+`); return el ? el.innerText : ''; })()`,
		func(s string) bool { return strings.TrimSpace(s) != "" })
	return strings.Join(strings.Fields(text), " ")
}

// Exists reports whether an element matches the CSS selector now, without
// waiting.
func (b *Browser) Exists(sel string) bool {
	b.t.Helper()
	return Eval[bool](b, "document.querySelector("+jsString(sel)+") !== null")
}

// WaitVisible waits until the first element matching the CSS selector is
// visible.
func (b *Browser) WaitVisible(sel string) {
	b.t.Helper()
	b.step("wait for "+sel+" to be visible", chromedp.WaitVisible(chromedp.CSS(sel)))
}

// Fill replaces the value of the input matching the CSS selector by typing
// value, so the page sees real key and input events.
func (b *Browser) Fill(sel, value string) {
	b.t.Helper()
	b.WaitVisible(sel)
	// chromedp's SetValue refuses an empty value, so clear through the DOM.
	Eval[chromedp.Void](b, "document.querySelector("+jsString(sel)+").value = ''")
	b.step("fill "+sel, chromedp.SendKeys(chromedp.CSS(sel), value))
}

// Click clicks the centre of the first visible element matching the CSS
// selector and returns at once; use ClickNavigate when it loads a page.
func (b *Browser) Click(sel string) {
	b.t.Helper()
	b.step("click "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// ClickNavigate clicks a link or submit button, waits for the page it leads
// to (after redirects) and returns that page's HTTP status.
func (b *Browser) ClickNavigate(sel string) int {
	b.t.Helper()
	ctx := b.ctx
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(sel)))
	if err != nil {
		b.fatalf("click %s and wait for the next page: %v", sel, err)
	}
	if resp == nil {
		return 0
	}
	return int(resp.Status)
}

// Eval evaluates a JavaScript expression in the page (awaiting a promise)
// and decodes its JSON value into T. Null or undefined fail for a T that
// cannot be nil and give nil for a pointer, slice or map T.
func Eval[T any](b *Browser, js string) T {
	b.t.Helper()
	return value(b, fmt.Sprintf("evaluate %.80q", js), chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
}

// Hover moves the mouse over the first visible element matching the CSS
// selector, at fractions fx, fy (0..1) of its width and height, e.g. to open
// a chart tooltip.
func (b *Browser) Hover(sel string, fx, fy float64) {
	b.t.Helper()
	b.WaitVisible(sel)
	type box struct{ X, Y, W, H float64 }
	r := Eval[box](b, `(() => {
		const el = document.querySelector(`+jsString(sel)+`);
		el.scrollIntoView({block: 'center', inline: 'center'});
		const r = el.getBoundingClientRect();
		return {X: r.left, Y: r.top, W: r.width, H: r.height};
	})()`)
	x, y := r.X+fx*r.W, r.Y+fy*r.H
	b.step(fmt.Sprintf("hover %s at (%.0f, %.0f)", sel, x, y), chromedp.MouseEvent(chromedp.MouseMoved, x, y))
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}
