package browsertest

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestPaymentsPrintsAtLeast8pt lays the payments tab of two businesses out
// at A4's width under the print stylesheet: its aging tables (twelve
// columns of amounts, once printed at about 7 pt) and heat table print no
// text under 8 pt and still reach no further than the paper's edge.
func TestPaymentsPrintsAtLeast8pt(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/businesses/1001/payments")
	setViewport(b, printWidth, 1000, false)
	for _, id := range []string{"1001", "1002"} {
		path := "/businesses/" + id + "/payments"
		if status := b.Navigate(app.URL + path); status != http.StatusOK {
			t.Fatalf("GET %s: status %d", path, status)
		}
		if n := Eval[int](b, `document.querySelectorAll('table.aging').length`); n < 2 {
			t.Fatalf("%s: %d aging tables, want the months' and the categories'", path, n)
		}
		emulateMedia(b, "print")
		if s := Eval[textSize](b, smallestText); s.Px < minPrintPx {
			t.Errorf("%s: printed text of %.2f px (under 8 pt): %s", path, s.Px, s.What)
		}
		aging := Eval[float64](b, `Math.min(...Array.from(document.querySelectorAll('table.aging td, table.aging th, table.aging .pct')).map((c) => parseFloat(getComputedStyle(c).fontSize)))`)
		if aging < minPrintPx {
			t.Errorf("%s: the aging tables print at %.2f px, under 8 pt", path, aging)
		}
		if f := Eval[printFit](b, printFitView); len(f.Past) > 0 {
			t.Errorf("%s printed on A4: past the paper's edge: %s", path, strings.Join(f.Past, "; "))
		}
		b.Screenshot("payments-print-" + id)
		emulateMedia(b, "")
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
