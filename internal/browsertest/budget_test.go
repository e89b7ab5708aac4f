package browsertest

import (
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// An Ordinary account (10 requests an hour) browsing reports sees its quota
// in the header, and once it runs low, sections offered to load later with
// their cost and the renewal time: never a 429 page.
func TestOrdinaryUserSeesQuotaAndLoadButtons(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	b.Navigate(app.URL + "/login")
	signIn(t, b, "ordinary")

	// A short budget: the home page spent 2 requests at most (issue 31).
	if got := b.Text(".quota"); !strings.Contains(got, "8 of 10 requests left this hour") {
		t.Fatalf("quota meter on the home page: %q", got)
	}
	b.Navigate(app.URL + "/businesses/1001") // 5 more
	if status := b.Navigate(app.URL + "/businesses/1002"); status != 200 {
		t.Fatalf("GET /businesses/1002 with three requests left: status %d, want 200", status)
	}
	if got := b.Text(".quota"); !strings.Contains(got, "0 of 10 requests left this hour, renews in") {
		t.Errorf("quota meter: %q", got)
	}
	// Nothing is left for the summary and the risk history: no Load
	// button that could not work, and one notice saying when it renews.
	if n := Eval[int](b, `document.querySelectorAll(".problem.deferred a").length`); n != 0 {
		t.Errorf("%d Load buttons with no request left, want none", n)
	}
	if n := Eval[int](b, `document.querySelectorAll("#budget-notice").length`); n != 1 || !strings.Contains(b.Text("#budget-notice"), "renews at") {
		t.Errorf("%d budget notices: %q", n, b.Text("#budget-notice"))
	}
	// Charts draw when they come into view.
	Eval[bool](b, `(document.querySelector("#score-history [data-chart]").scrollIntoView({block: "center"}), true)`)
	b.WaitVisible(`#score-history [data-chart][data-drawn="true"]`)
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
	b.Screenshot("budget")
}
