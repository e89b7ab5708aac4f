package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestOrdinaryHomeSpendsTwo: an Ordinary account's ten requests an hour
// are short, so the home page spends two at most, from its first visit
// (the first section teaches the budget), and offers the rest.
func TestOrdinaryHomeSpendsTwo(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")
	p := u.Get("/")
	mustStatus(t, "/", p, http.StatusOK)
	if n := total(app, "ordinary"); n > 2 {
		t.Errorf("the home page spent %d requests, want 2 at most", n)
	}
	offers := p.Doc.Find(".problem.deferred")
	if offers.Length() == 0 || offers.Find("a").Length() == 0 {
		t.Errorf("the sections not loaded are not offered with a Load link: %q", offers.Text())
	}
	// Following an offer loads it: the cap is the page's, not the account's.
	href, _ := offers.Find("a").First().Attr("href")
	if q := u.Get(href); q.Status != http.StatusOK || total(app, "ordinary") <= 2 {
		t.Errorf("GET %s: status %d, %d requests spent; want the section loaded", href, q.Status, total(app, "ordinary"))
	}

	// An account with a large budget loads the whole home page.
	demo := app.SignIn(t, "demo")
	if p := demo.Get("/"); p.Doc.Find(".problem.deferred").Length() != 0 {
		t.Errorf("demo's home page left sections unloaded: %q", p.Text(".problem.deferred"))
	}
}

// TestSpentBudgetOneNoticeInTheAnalystsZone: a report with nothing left
// shows one notice with the renewal time in the analyst's time zone (the
// browser's, from its cookie) and in UTC; the sections are lines without
// Load links, which could not work.
func TestSpentBudgetOneNoticeInTheAnalystsZone(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")
	base, _ := url.Parse(app.URL)
	u.Client().Jar.SetCookies(base, []*http.Cookie{{Name: "creditdash_tz", Value: url.QueryEscape("Asia/Kolkata"), Path: "/"}})
	for _, path := range []string{"/businesses/1001", "/businesses/1002/payments", "/businesses/1002"} {
		u.Get(path)
	}
	if n := total(app, "ordinary"); n != 10 {
		t.Fatalf("setup: %d requests spent, want 10", n)
	}
	p := u.Get("/businesses/1003")
	mustStatus(t, "/businesses/1003", p, http.StatusOK)
	notices := p.Doc.Find("#budget-notice")
	if notices.Length() != 1 {
		t.Fatalf("%d budget notices, want 1", notices.Length())
	}
	// India has no summer time: the zone's abbreviation is IST, 5:30 ahead.
	re := regexp.MustCompile(`renews at (\d\d):(\d\d) IST \((\d\d):(\d\d) UTC\)`)
	m := re.FindStringSubmatch(notices.Text())
	if m == nil {
		t.Fatalf("notice = %q, want the renewal in IST and UTC", notices.Text())
	}
	local, utc := atoi(m[1])*60+atoi(m[2]), atoi(m[3])*60+atoi(m[4])
	if d := (local - utc + 24*60) % (24 * 60); d != 5*60+30 {
		t.Errorf("IST %s:%s is %d minutes from UTC %s:%s, want 330", m[1], m[2], d, m[3], m[4])
	}
	if n := p.Doc.Find(".problem.deferred a").Length(); n != 0 {
		t.Errorf("%d Load links with no request left", n)
	}
	if p.Doc.Find(".problem.waiting").Length() < 2 {
		t.Errorf("the sections should each be a line: %q", p.Text(".problem"))
	}

	// Without the browser's zone, UTC alone; a made-up zone is ignored.
	plain := app.SignIn(t, "ordinary")
	plain.Client().Jar.SetCookies(base, []*http.Cookie{{Name: "creditdash_tz", Value: "Mars/Olympus", Path: "/"}})
	if got := plain.Get("/businesses/1003").Text("#budget-notice"); !regexp.MustCompile(`renews at \d\d:\d\d UTC, in`).MatchString(got) {
		t.Errorf("notice without a known zone = %q, want UTC alone", got)
	}
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

// TestTimeZoneScriptOnEveryPage: signed-in pages load js/tz.js (a static
// file: the CSP allows no inline script), which sets the zone cookie.
func TestTimeZoneScriptOnEveryPage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	tag := u.Get("/").Doc.Find(`script[src*="/js/tz"]`)
	src, ok := tag.Attr("src")
	if !ok {
		t.Fatal("the home page does not load js/tz.js")
	}
	js := u.Get(src)
	if js.Status != http.StatusOK || !strings.Contains(js.Body, "creditdash_tz=") {
		t.Errorf("GET %s: status %d", src, js.Status)
	}
	// The zone is read in a worker (the first Intl call is a long task on
	// a phone's main thread), a static file too.
	worker, _ := tag.Attr("data-worker")
	if w := u.Get(worker); !strings.Contains(worker, "/js/tz-worker") || w.Status != http.StatusOK || !strings.Contains(w.Body, "resolvedOptions().timeZone") {
		t.Errorf("the zone worker %q: status %d", worker, w.Status)
	}
}
