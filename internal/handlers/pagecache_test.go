package handlers_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
)

var nonceAttr = regexp.MustCompile(`nonce="([^"]+)"`)

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

func TestKeptPagesCarryTheirOwnRequestsNonce(t *testing.T) {
	// A still clock: a page is kept for the minute it names.
	app := apptest.Start(t, apptest.Options{Now: newClock(time.Now()).Now})
	u := app.SignIn(t, "demo")
	first, _ := fetch(t, u, app.URL+"/businesses/1001", true)
	if strings.Count(app.Logs.String(), "page served from the page cache") != 0 {
		t.Fatal("the first visit came from the page cache")
	}
	for _, gz := range []bool{true, false} {
		again, csp := fetch(t, u, app.URL+"/businesses/1001", gz)
		nonces := nonceAttr.FindAllStringSubmatch(again, -1)
		if len(nonces) < 5 {
			t.Fatalf("%d nonces on the kept page", len(nonces))
		}
		for _, n := range nonces {
			if !strings.Contains(csp, "'nonce-"+n[1]+"'") {
				t.Fatalf("gzip %v: script nonce %q is not the CSP's (%s)", gz, n[1], csp)
			}
		}
		if nonceAttr.ReplaceAllString(again, "") != nonceAttr.ReplaceAllString(first, "") {
			t.Errorf("gzip %v: the kept page differs from the page it keeps", gz)
		}
		if strings.Contains(again, `nonce="nonce-`) { // the render-time marker
			t.Error("the nonce marker leaked into the page")
		}
	}
	if n := strings.Count(app.Logs.String(), "page served from the page cache"); n != 2 {
		t.Errorf("%d visits came from the page cache, want 2", n)
	}
}

func TestKeptPagesFollowTheData(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Now: newClock(time.Now()).Now})
	u := app.SignIn(t, "demo")
	u.Get("/businesses/1001/officers")
	u.Get("/businesses/1001/officers")
	kept := strings.Count(app.Logs.String(), "page served from the page cache")
	r := u.Get("/businesses/1001/officers?refresh=1")
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
