package browsertest

import (
	"regexp"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"creditdash/internal/apptest"
)

// TestRenewalInTheBrowsersZone: js/tz.js tells the dashboard the
// browser's time zone (here India's, emulated), so with an Ordinary
// account's requests spent the page's one notice gives the renewal in IST
// and in UTC; the first page, before the script ran, in UTC alone.
func TestRenewalInTheBrowsersZone(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	spender := app.SignIn(t, "ordinary")
	for _, path := range []string{"/businesses/1001", "/businesses/1002/payments", "/businesses/1002"} {
		spender.Get(path)
	}
	b := Start(t)
	if _, err := chromedp.Call(b.Context(), emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Kolkata"}); err != nil {
		t.Fatalf("emulating a time zone: %v", err)
	}
	b.Navigate(app.URL + "/login?next=/businesses/1003")
	signIn(t, b, "ordinary")
	first := b.Text("#budget-notice")
	if !regexp.MustCompile(`renews at \d\d:\d\d UTC, in`).MatchString(first) {
		t.Errorf("first notice = %q, want the renewal in UTC", first)
	}
	// The zone is read in a worker, so the cookie comes a moment after
	// the page.
	Until(b, "js/tz.js to set its zone cookie", `document.cookie.includes('creditdash_tz=')`, func(ok bool) bool { return ok })
	b.Navigate(app.URL + "/businesses/1003")
	if got := b.Text("#budget-notice"); !regexp.MustCompile(`renews at \d\d:\d\d IST \(\d\d:\d\d UTC\)`).MatchString(got) {
		t.Errorf("notice after the script ran = %q, want the renewal in IST and UTC", got)
	}
	b.NoConsoleErrors(t)
}
