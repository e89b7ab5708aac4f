package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestTypedAmountsAreNeverGuessed (issues 43.4, 47.6): a limit request of
// "12,5" is refused (422) with how to write it, not approved as $12.50;
// "1..2" and "(-5)" are refused too, each keeping what was typed; the
// calculator's inputs go through the same parser.
func TestTypedAmountsAreNeverGuessed(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer")
		importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		for typed, hint := range map[string]string{"12,5": "write 12.5 (or 12,500 for thousands)", "1..2": "not an amount", "(-5)": "not an amount"} {
			p := dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", typed, "reason", "Orders doubled")
			if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text("#amount-error"), hint) {
				t.Errorf("request of %q: status %d, message %q; want 422 saying %q", typed, p.Status, p.Text("#amount-error"), hint)
			}
			if v, _ := p.Doc.Find("#amount").Attr("value"); v != typed {
				t.Errorf("typed amount not kept: %q, want %q", v, typed)
			}
			c := dev.Get("/businesses/1001/limit?monthly_sales=" + strings.NewReplacer(",", "%2C", "(", "%28", ")", "%29").Replace(typed))
			if c.Status != http.StatusUnprocessableEntity || !strings.Contains(c.Text("#monthly_sales-error"), hint) {
				t.Errorf("calculator with %q: status %d, message %q", typed, c.Status, c.Text("#monthly_sales-error"))
			}
		}
		if got := dev.Get("/decisions").Text("main"); strings.Contains(got, "$12.50") || strings.Contains(got, "$13") {
			t.Errorf("a refused amount became a request: %.300s", got)
		}
	})
}
