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

	// The home page spent 4 requests (folders, two score histories, news).
	if got := b.Text(".quota"); !strings.Contains(got, "6 of 10 requests left this hour") {
		t.Fatalf("quota meter on the home page: %q", got)
	}
	b.Navigate(app.URL + "/businesses/1001") // 5 more
	if status := b.Navigate(app.URL + "/businesses/1002"); status != 200 {
		t.Fatalf("GET /businesses/1002 with one request left: status %d, want 200", status)
	}
	if got := b.Text(".quota"); !strings.Contains(got, "0 of 10 requests left this hour, renews in") {
		t.Errorf("quota meter: %q", got)
	}
	n := Eval[int](b, `document.querySelectorAll(".problem.deferred a").length`)
	if n != 3 {
		t.Errorf("%d Load buttons, want 3 (header, summary and risk history)", n)
	}
	if got := b.Text("#summary .problem.deferred a"); got != "Load (uses 1 request)" {
		t.Errorf("Load button reads %q", got)
	}
	// Charts draw when they come into view.
	Eval[bool](b, `(document.querySelector("#score-history [data-chart]").scrollIntoView({block: "center"}), true)`)
	b.WaitVisible(`#score-history [data-chart][data-drawn="true"]`)
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
	b.Screenshot("budget")
}
