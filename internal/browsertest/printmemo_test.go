package browsertest

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// smallestText is the smallest computed font size, in CSS pixels, of any
// element of main with text of its own, and that element.
const smallestText = `(() => {
	let min = 1000, what = '';
	for (const el of document.querySelectorAll('main *')) {
		if (el.getClientRects().length === 0) continue;
		const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
		if (!own) continue;
		const px = parseFloat(getComputedStyle(el).fontSize);
		if (px < min) { min = px; what = el.tagName.toLowerCase() + ' "' + el.textContent.trim().slice(0, 30) + '"'; }
	}
	return {Px: min, What: what};
})()`

// textSize is what smallestText measures.
type textSize struct {
	Px   float64
	What string
}

// minPrintPx is 8 pt in CSS pixels (96 px to 72 pt).
const minPrintPx = 8 * 96.0 / 72

// TestCreditMemoPrints is a limit request's day in the browser: an
// analyst imports the team's ledger, works out a limit with the
// calculator and asks for more than their authority; a manager approves
// it; the credit memo linked from the request prints on A4 and on Letter
// within two pages, with no text under 8 pt, no forms, and the decision,
// its approver, the team's exposure with the limit's history and each
// section's dated source on paper.
func TestCreditMemoPrints(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	b.Navigate(app.URL + "/accounts/import")
	if status := signIn(t, b, "developer"); status != http.StatusOK {
		t.Fatalf("sign in as developer: status %d", status)
	}
	if status := b.ClickNavigate(`button[name="sample"][value="demo-ledger-current.csv"]`); status != http.StatusOK {
		t.Fatalf("sample ledger preview: status %d", status)
	}
	if status := b.ClickNavigate(".import-confirm button[type=submit]"); status != http.StatusOK {
		t.Fatalf("sample ledger import: status %d", status)
	}
	calc := "/businesses/1001/limit?account=C10000&monthly_sales=60500&months_allowed=2&loss_budget=2000"
	if status := b.Navigate(app.URL + calc); status != http.StatusOK {
		t.Fatalf("GET %s: status %d", calc, status)
	}
	b.Fill("#request-form #amount", "20000")
	b.Fill("#request-form #reason", "Orders doubled since the spring; the calculator's loss cap binds.")
	if status := b.ClickNavigate("#request-form button[type=submit]"); status != http.StatusOK {
		t.Fatalf("request: status %d", status)
	}
	decision := strings.TrimPrefix(b.URL(), app.URL)
	if !regexp.MustCompile(`^/decisions/\d+$`).MatchString(decision) || b.Text("#status") != "Waiting for approval" {
		t.Fatalf("after the request: at %q, status %q", decision, b.Text("#status"))
	}

	signOut(b)
	b.Navigate(app.URL + decision)
	if status := signIn(t, b, "demo"); status != http.StatusOK {
		t.Fatalf("sign in as demo: status %d", status)
	}
	b.Fill("#approve-note", "Strong payer, within policy")
	if status := b.ClickNavigate(`#decide form[action$="/approve"] button`); status != http.StatusOK {
		t.Fatalf("approve: status %d", status)
	}
	if b.Text("#status") != "Approved" {
		t.Fatalf("after approval: status %q", b.Text("#status"))
	}
	if status := b.ClickNavigate("#memo-link"); status != http.StatusOK || !strings.HasSuffix(b.URL(), decision+"/memo") {
		t.Fatalf("the memo link: status %d, at %q", status, b.URL())
	}
	if got := b.Text("#memo-approvers"); got != "demo" {
		t.Errorf("approvers = %q, want demo", got)
	}

	emulateMedia(b, "print")
	if s := Eval[textSize](b, smallestText); s.Px < minPrintPx {
		t.Errorf("printed text of %.1f px (under 8 pt): %s", s.Px, s.What)
	}
	if n := Eval[int](b, `Array.from(document.forms).filter((f) => f.getClientRects().length > 0).length`); n > 0 {
		t.Errorf("%d forms print", n)
	}
	if n := Eval[int](b, `Array.from(document.querySelectorAll('.sheet-source time')).filter((e) => e.getClientRects().length > 0).length`); n != 5 {
		t.Errorf("%d sections print their dated source, want 5", n)
	}
	if n := Eval[int](b, `Array.from(document.querySelectorAll('#sheet-exposure-part .limit-history tbody tr')).filter((e) => e.getClientRects().length > 0).length`); n != 1 {
		t.Errorf("%d limits of the account's history print, want 1 (the one approved)", n)
	}
	b.Screenshot("memo-print")
	emulateMedia(b, "")
	for _, paper := range Papers {
		pdf, pages := PrintPages(t, b, paper)
		if pages < 1 || pages > 2 {
			t.Errorf("the memo prints on %d %s pages (%d bytes), want 1 or 2", pages, paper.Name, len(pdf))
		}
		t.Logf("memo on %s: %d pages", paper.Name, pages)
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
