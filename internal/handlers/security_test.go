package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream/simulator"
)

// wantCSP is the one static policy of every answer.
const wantCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
	"connect-src 'self'; object-src 'none'; form-action 'self'; base-uri 'self'; frame-ancestors 'none'"

// checkSecurityHeaders checks what every response must carry.
func checkSecurityHeaders(t *testing.T, what string, p *apptest.Page, page bool) {
	t.Helper()
	if csp := p.Header.Get("Content-Security-Policy"); csp != wantCSP {
		t.Errorf("%s: CSP %q, want %q", what, csp, wantCSP)
	}
	want := map[string]string{
		"X-Content-Type-Options": "nosniff",
		"X-Frame-Options":        "DENY",
		"Referrer-Policy":        "same-origin",
	}
	for k, v := range want {
		if got := p.Header.Get(k); got != v {
			t.Errorf("%s: %s = %q, want %q", what, k, got, v)
		}
	}
	if p.Header.Get("Strict-Transport-Security") != "" {
		t.Errorf("%s: HSTS sent by a dashboard with insecure cookies (plain http)", what)
	}
	if page && p.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("%s: Cache-Control = %q, want no-store", what, p.Header.Get("Cache-Control"))
	}
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	anon := app.NewUser(t)
	u := app.SignIn(t, "demo")
	cases := []struct {
		name string
		user *apptest.User
		path string
		page bool
	}{
		{"login", anon, "/login", true},
		{"redirect to sign-in", anon, "/portfolio", true},
		{"home", u, "/", true},
		{"search", u, "/?q=North", true},
		{"bad lookup", u, "/open?by=id&value=abc", true},
		{"unknown page", u, "/no/such/page", true},
		{"health", anon, "/healthz", false},
		{"static", anon, "/static/css/app.css", false},
	}
	for _, c := range cases {
		p := c.user.Get(c.path)
		checkSecurityHeaders(t, c.name+" "+c.path, p, c.page)
	}
}

func TestCSRF(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})

	t.Run("without token or Sec-Fetch-Site", func(t *testing.T) {
		u := app.SignIn(t, "demo")
		p := u.PostForm("/logout", url.Values{})
		if p.Status != http.StatusForbidden {
			t.Fatalf("POST /logout without token: status %d, want 403", p.Status)
		}
		if !strings.Contains(p.Text("h1"), "form expired") {
			t.Errorf("403 page title = %q", p.Text("h1"))
		}
		if u.Get("/").Status != http.StatusOK {
			t.Errorf("a refused form must not lose the session")
		}
	})
	t.Run("wrong token", func(t *testing.T) {
		u := app.SignIn(t, "demo")
		if p := u.PostForm("/logout", url.Values{"_csrf": {"not-the-token"}}); p.Status != http.StatusForbidden {
			t.Errorf("POST /logout with a wrong token: status %d, want 403", p.Status)
		}
	})
	t.Run("sign-in without token", func(t *testing.T) {
		u := app.NewUser(t)
		p := u.PostForm("/login", url.Values{"username": {"demo"}, "password": {"demo"}})
		if p.Status != http.StatusForbidden {
			t.Errorf("POST /login without token: status %d, want 403", p.Status)
		}
	})
	t.Run("same-origin browser without token", func(t *testing.T) {
		// The token is asked for even then: Sec-Fetch-Site alone is not
		// bound to the session.
		u := app.SignIn(t, "demo")
		u.Header.Set("Sec-Fetch-Site", "same-origin")
		if p := u.PostForm("/logout", url.Values{}); p.Status != http.StatusForbidden {
			t.Errorf("same-origin POST /logout without token: status %d, want 403", p.Status)
		}
	})
	t.Run("cross-site browser with token", func(t *testing.T) {
		u := app.SignIn(t, "demo")
		tok := u.Token("/")
		u.Header.Set("Sec-Fetch-Site", "cross-site")
		if p := u.PostForm("/logout", url.Values{"_csrf": {tok}}); p.Status != http.StatusForbidden {
			t.Errorf("cross-site POST /logout: status %d, want 403", p.Status)
		}
	})
	t.Run("same-site browser", func(t *testing.T) {
		u := app.SignIn(t, "demo")
		u.Header.Set("Sec-Fetch-Site", "same-site")
		if p := u.PostForm("/logout", url.Values{}); p.Status != http.StatusForbidden {
			t.Errorf("same-site POST /logout: status %d, want 403", p.Status)
		}
	})
}

func TestServiceTextIsEscaped(t *testing.T) {
	data := hostileData(t)
	app := apptest.Start(t, apptest.Options{Data: data})
	u := app.SignIn(t, "demo")
	p := u.Get("/?q=" + url.QueryEscape("Evil"))
	if p.Status != http.StatusOK {
		t.Fatalf("search: status %d", p.Status)
	}
	if strings.Contains(p.Body, "<script>alert") || strings.Contains(p.Body, "<img src=x") {
		t.Fatalf("service text rendered as markup:\n%s", p.Body)
	}
	if !strings.Contains(p.Body, "&lt;script&gt;alert") {
		t.Errorf("the hostile name is not shown escaped")
	}
	if p.Doc.Find("script:not([src])").Length() != 0 {
		t.Errorf("an inline script appeared on the page")
	}
}

// hostileData is the demo data with a business whose name carries markup.
func hostileData(t *testing.T) *simulator.Dataset {
	t.Helper()
	base := apptest.DemoData()
	data := *base
	data.Businesses = append([]simulator.Business(nil), base.Businesses...)
	data.Businesses[1].Name = `Evil <script>alert(1)</script><img src=x onerror=alert(2)> Corp`
	data.Businesses[1].City = `"><svg onload=alert(3)>`
	return &data
}

func TestSessionKeyNeverInPagesOrLogs(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	key := u.SessionKey()
	for _, path := range []string{"/", "/?q=North", "/open?by=id&value=x", "/nowhere", "/login"} {
		p := u.Get(path)
		if strings.Contains(p.Body, key) || strings.Contains(p.Header.Get("Location"), key) {
			t.Errorf("GET %s: the session key appears in the answer", path)
		}
	}
	tok := u.Token("/")
	u.PostForm("/logout", url.Values{"_csrf": {tok}})
	if app.Logs.Contains(key) {
		t.Errorf("the session key appears in the logs")
	}
	if app.Logs.Contains("password") && app.Logs.Contains("demo\"") {
		t.Errorf("the logs may hold a password")
	}
}

// A Z″ the service sends absurdly large (1e307) shows as it is: the pages
// that chart it answer, where rounding it for the chart used to overflow
// to +Inf and turn each into a 500.
func TestHugeScoresDoNotBreakCharts(t *testing.T) {
	ds := simulator.Generate(simulator.GenerateOptions{Seed: apptest.Seed, AsOf: apptest.AsOf})
	for i := range ds.Businesses {
		if ds.Businesses[i].ID == 1002 || ds.Businesses[i].Public {
			for j := range ds.Businesses[i].Scores {
				big := 1e307
				ds.Businesses[i].Scores[j].Z = &big
			}
		}
	}
	app := apptest.Start(t, apptest.Options{Data: ds})
	u := app.SignIn(t, "demo")
	for _, path := range []string{"/", "/portfolio/quadrant", "/portfolio/stress", "/portfolio/scores?score=z", "/businesses/1002"} {
		if p := u.Get(path); p.Status != http.StatusOK {
			t.Errorf("GET %s with a Z″ of 1e307: status %d, want 200", path, p.Status)
		}
	}
}

// Service text holding go-echarts' function marker is only text: the
// charts that carry it (SIC categories on the payments tab) draw it as
// such, where the page used to refuse the chart and answer 500.
func TestFunctionMarkerInServiceTextIsText(t *testing.T) {
	ds := simulator.Generate(simulator.GenerateOptions{Seed: apptest.Seed, AsOf: apptest.AsOf})
	for i := range ds.Businesses {
		if b := &ds.Businesses[i]; b.ID == 1002 {
			for j := range b.PaymentsSIC {
				b.PaymentsSIC[j].CategoryName = "__f__function(){alert(1)}__f__ services"
			}
		}
	}
	app := apptest.Start(t, apptest.Options{Data: ds})
	p := app.SignIn(t, "demo").Get("/businesses/1002/payments")
	if p.Status != http.StatusOK || !strings.Contains(p.Body, "__f__function(){alert(1)}__f__ services") {
		t.Errorf("payments tab with the marker in a category name: status %d, want 200 with the name as text", p.Status)
	}
}
