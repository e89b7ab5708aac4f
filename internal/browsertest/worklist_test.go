package browsertest

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// TestWorklistKeyboard: on the worklist, j and k move the marked line
// (its link takes the focus), a j typed into the owner field stays there,
// and Enter opens the marked line's account; no console error, no CSP
// violation.
func TestWorklistKeyboard(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	limit := 1000.0
	lines := []store.LedgerLine{
		{Account: "A-1", Name: "Westbridge", BusinessID: 1001, Balance: 1500, Current: 1500, ERPLimit: &limit},
		{Account: "A-2", Name: "Eastgate", BusinessID: 1002, Balance: 900, Current: 900, ERPLimit: &limit},
		{Account: "A-3", Name: "Northway", Balance: 500, Current: 500, ERPLimit: &limit},
	}
	_, err := app.Store.ImportLedger(context.Background(), store.Analyst{Service: apptest.WorkspaceService, User: "demo"},
		store.ImportSpec{AsOf: time.Date(2026, 9, 30, 0, 0, 0, 0, time.UTC), File: "aging.csv", Lines: lines})
	if err != nil {
		t.Fatal(err)
	}
	b := Start(t)
	openSignedIn(t, app, b, "/worklist")
	current := func() string {
		return Eval[string](b, `(document.querySelector("table.worklist tr.current") || {dataset: {}}).dataset.account || ""`)
	}
	focused := func() string {
		return Eval[string](b, `document.activeElement ? document.activeElement.textContent.trim() : ""`)
	}
	key := func(k string) { b.step("press "+k, chromedp.KeyEvent(k)) }
	key("j")
	if current() != "A-1" || focused() != "A-1" {
		t.Fatalf("after j: line %q, focus %q; want A-1", current(), focused())
	}
	key("j")
	key("j")
	key("j") // past the last line stays there
	if current() != "A-3" {
		t.Errorf("after four j: line %q, want A-3", current())
	}
	key("k")
	if current() != "A-2" || focused() != "A-2" {
		t.Errorf("after k: line %q, focus %q; want A-2", current(), focused())
	}
	b.Fill("#bulk-owner", "j")
	if current() != "A-2" {
		t.Errorf("a j typed into the owner field moved the line to %q", current())
	}
	b.step("mark A-2 again", chromedp.Focus(chromedp.CSS(`tr[data-account="A-2"] a.work-open`)))
	ctx := b.ctx
	if _, err := chromedp.RunResponse(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatalf("Enter on the marked line: %v", err)
	}
	if want := app.URL + "/businesses/1002"; b.URL() != want {
		t.Errorf("Enter opened %q, want %q", b.URL(), want)
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
