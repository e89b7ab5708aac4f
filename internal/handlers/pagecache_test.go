package handlers_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream/simulator"
)

// fetch gets path with or without gzip and returns the decoded body and CSP.
func fetch(t *testing.T, u *apptest.User, url string, gz bool) (string, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if gz {
		req.Header.Set("Accept-Encoding", "gzip")
	} else {
		req.Header.Set("Accept-Encoding", "identity")
	}
	resp, err := u.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r io.Reader = resp.Body
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	} else if gz {
		t.Fatal("a page was sent uncompressed to a browser that takes gzip")
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return string(b), resp.Header.Get("Content-Security-Policy")
}

func TestKeptPagesAreThePagesTheyKeep(t *testing.T) {
	// A still clock: a page is kept for the minute it names.
	app := apptest.Start(t, apptest.Options{Now: newClock(time.Now()).Now})
	u := app.SignIn(t, "demo")
	first, _ := fetch(t, u, app.URL+"/businesses/1001", true)
	if strings.Count(app.Logs.String(), "page served from the page cache") != 0 {
		t.Fatal("the first visit came from the page cache")
	}
	again, _ := fetch(t, u, app.URL+"/businesses/1001", true)
	if again != first {
		t.Error("the kept page differs from the page it keeps")
	}
	plain, _ := fetch(t, u, app.URL+"/businesses/1001", false)
	if plain != first {
		a, b := first, plain
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				a, b = a[max(i-80, 0):min(i+80, len(a))], b[max(i-80, 0):min(i+80, len(b))]
				break
			}
		}
		t.Errorf("the page sent without gzip differs from the gzipped one:\n%s\n%s", a, b)
	}
	// Both encodings are kept: the plain visit came from the kept gzipped
	// copy, and the next of each kind from its own.
	if n := strings.Count(app.Logs.String(), "page served from the page cache"); n != 2 {
		t.Errorf("%d visits came from the page cache, want 2 (gzip and plain)", n)
	}
	if again, _ := fetch(t, u, app.URL+"/businesses/1001", false); again != first {
		t.Error("the kept plain page differs from the page it keeps")
	}
	if again, _ := fetch(t, u, app.URL+"/businesses/1001", true); again != first {
		t.Error("the kept gzipped page differs after a plain visit")
	}
	if n := strings.Count(app.Logs.String(), "page served from the page cache"); n != 4 {
		t.Errorf("%d visits came from the page cache, want 4", n)
	}
}

func TestAPlainVisitFirstIsKeptToo(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Now: newClock(time.Now()).Now})
	u := app.SignIn(t, "demo")
	plain, _ := fetch(t, u, app.URL+"/businesses/1001", false)
	if again, _ := fetch(t, u, app.URL+"/businesses/1001", false); again != plain {
		t.Error("the kept plain page differs from the page it keeps")
	}
	if gz, _ := fetch(t, u, app.URL+"/businesses/1001", true); gz != plain {
		t.Error("the gzipped page made from the plain copy differs from it")
	}
	if n := strings.Count(app.Logs.String(), "page served from the page cache"); n != 2 {
		t.Errorf("%d visits came from the page cache, want 2", n)
	}
}

func TestPageWithAFailedSectionIsNotKept(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Now: newClock(time.Now()).Now})
	u := app.SignIn(t, "demo")
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorStatus: 500, ErrorPaths: []string{"/v1/Business/Officers"}})
	if p := u.Get("/businesses/1001/officers"); p.Doc.Find("#officers .problem").Length() == 0 {
		t.Fatalf("no problem box for the failing officers section: %q", p.Text("main"))
	}
	app.Sim.SetFaults(simulator.Faults{})
	app.Sim.Reset()
	p := u.Get("/businesses/1001/officers")
	if p.Doc.Find("#officers .problem").Length() != 0 {
		t.Error("the failed section is still shown after the fault cleared: the page was kept")
	}
	if n := app.Sim.Requests()["demo"]["/v1/Business/Officers"]; n != 1 {
		t.Errorf("reload after the fault cleared asked Officers %d times, want 1", n)
	}
}

func TestKeptPagesShowTheCurrentQuotaAndToken(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Now: newClock(time.Now()).Now})
	u := app.SignIn(t, "ordinary")
	u.Get("/businesses/1001/officers")
	first := u.Get("/businesses/1001/officers")
	u.Get("/businesses/1002/officers") // spends requests: the meter moves
	again := u.Get("/businesses/1001/officers")
	if first.Text(".quota") == again.Text(".quota") {
		t.Errorf("the quota meter did not move after other pages spent requests: %q", again.Text(".quota"))
	}
	// A new form token (the CSRF cookie renewed) is never served an old page.
	other := app.SignIn(t, "ordinary")
	p := other.Get("/businesses/1001/officers")
	tok, _ := p.Doc.Find(`input[name="_csrf"]`).Attr("value")
	mine, _ := again.Doc.Find(`input[name="_csrf"]`).Attr("value")
	if tok == "" || tok == mine {
		t.Errorf("a second browser got the first browser's form token %q", tok)
	}
}

func TestKeptPagesFollowTheData(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Now: newClock(time.Now()).Now})
	u := app.SignIn(t, "demo")
	u.Get("/businesses/1001/officers")
	page := u.Get("/businesses/1001/officers")
	kept := strings.Count(app.Logs.String(), "page served from the page cache")
	r := u.Submit(page, ".freshness form.refresh")
	u.Get(r.Location()) // new copies of the data: a new page
	if n := strings.Count(app.Logs.String(), "page served from the page cache"); n != kept {
		t.Errorf("a refreshed page came from the page cache (%d, was %d)", n, kept)
	}
	// Another user never gets this user's page.
	other := app.SignIn(t, "developer")
	p := other.Get("/businesses/1001/officers")
	if p.Text("header .user") != "developer" {
		t.Errorf("the developer was served a page with user %q", p.Text("header .user"))
	}
}

func TestKeptPagesLastTheMinuteTheyName(t *testing.T) {
	clock := newClock(time.Now())
	app := apptest.Start(t, apptest.Options{Now: clock.Now})
	u := app.SignIn(t, "demo")
	u.Get("/news/industry")
	clock.Advance(time.Minute)
	p := u.Get("/news/industry")
	if strings.Contains(app.Logs.String(), "page served from the page cache") {
		t.Error("a page was kept past its minute")
	}
	if !strings.Contains(p.Text(".freshness"), "1 minute ago") {
		t.Errorf("freshness after a minute: %q", p.Text(".freshness"))
	}
}

// TestWarmPageSentBeforeItsReads: once a page is kept, the next visit is
// sent without reading its copies from the cache; a Refresh (its copies
// forgotten) and copies that expire make the page read them again.
func TestWarmPageSentBeforeItsReads(t *testing.T) {
	clock := newClock(time.Now().Truncate(time.Minute))
	app := apptest.Start(t, apptest.Options{Now: clock.Now})
	u := app.SignIn(t, "demo")
	reads := func() uint64 { s := app.Cache.Stats(); return s.FirstHits + s.SecondHits + s.Misses }
	u.Get("/businesses/1001")
	kept := u.Get("/businesses/1001") // kept, read from the cache, and noted
	before := reads()
	again := u.Get("/businesses/1001")
	if n := reads() - before; n != 0 {
		t.Errorf("a kept page read %d copies before it was sent, want none", n)
	}
	if again.Body != kept.Body {
		t.Error("the page sent before its reads differs from the kept page")
	}
	r := u.Submit(again, ".freshness form.refresh")
	before = reads()
	if p := u.Get(r.Location()); p.Status != http.StatusOK {
		t.Fatalf("after Refresh: status %d", p.Status)
	}
	if reads() == before {
		t.Error("after a Refresh the page was sent without reading its copies again")
	}
	u.Get("/businesses/1001")
	clock.Advance(30 * time.Second) // same minute, copies still fresh
	before = reads()
	u.Get("/businesses/1001")
	if n := reads() - before; n != 0 {
		t.Errorf("within its minute a kept page read %d copies, want none", n)
	}
	clock.Advance(2 * time.Hour) // every copy expired
	before = reads()
	if p := u.Get("/businesses/1001"); p.Status != http.StatusOK || reads() == before {
		t.Errorf("with every copy expired: status %d, %d reads; want the page read again", p.Status, reads()-before)
	}
}
