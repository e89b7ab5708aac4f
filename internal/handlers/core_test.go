package handlers_test

import (
	"context"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/handlers"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/simulator"
)

// No path a signed-in user follows sends them off the dashboard: not the
// old ?refresh=1 links on //host-style paths, nor a Refresh form whose page
// names another host in any encoding.
func TestNoRedirectLeavesTheDashboard(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	hostile := []string{
		"//evil.example/", "/%5Cevil.example/", "/%2F%2Fevil.example/", "/%09/evil.example/",
		"/\\evil.example/", "///evil.example/", "/%2f%2fevil.example", "https://evil.example/", "/%0d%0aevil",
	}
	for _, path := range hostile {
		req, _ := http.NewRequest(http.MethodGet, app.URL+"/", nil)
		req.URL.Opaque = path + "?refresh=1" // sent as typed, not cleaned
		req.URL.RawQuery = ""
		p := u.Do(req)
		if loc := p.Location(); loc != "" && !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") || strings.Contains(loc, "evil") {
			t.Errorf("GET %s?refresh=1: redirected to %q", path, loc)
		}
		tok := u.Token("/")
		r := u.PostForm("/refresh", url.Values{"_csrf": {tok}, "page": {path}})
		if r.Status != http.StatusSeeOther || r.Location() != "/" {
			t.Errorf("POST /refresh page=%q: status %d to %q, want 303 to /", path, r.Status, r.Location())
		}
	}
	tok := u.Token("/")
	r := u.PostForm("/refresh", url.Values{"_csrf": {tok}, "page": {"/portfolio?folder=1"}})
	if r.Location() != "/portfolio?folder=1" {
		t.Errorf("POST /refresh of a local page: to %q", r.Location())
	}
}

// A Refresh keeps nothing per request: any number of hostile posts leave
// the process as it was, and what one post may name is bounded.
func TestRefreshStoresNothingAndIsBounded(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	u.Get("/businesses/1001/officers")
	tok := u.Token("/")
	form := url.Values{"_csrf": {tok}, "page": {"/x" + strings.Repeat("y", 60000)}}
	for i := range 1000 {
		form.Add("copy", strings.Repeat("ab", 12))
		form.Add("copy", "not-a-token-"+string(rune('a'+i%26)))
	}
	for range 20 {
		if r := u.PostForm("/refresh", form); r.Status != http.StatusSeeOther || r.Location() != "/" {
			t.Fatalf("hostile refresh: status %d to %q, want 303 to / (a 60 kB path is no page)", r.Status, r.Location())
		}
	}
	// Nothing real was named, so nothing was forgotten: the page is still
	// served from the cache.
	app.Sim.Reset()
	u.Get("/businesses/1001/officers")
	if n := total(app, "demo"); n != 0 {
		t.Errorf("after hostile refresh posts the page asked the service %d times, want 0", n)
	}
}

// A page that cannot stand without the call the service refused is a 429
// page, and says when to come back in Retry-After.
func TestRateLimitedPageCarriesRetryAfter(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "trade")
	tok := u.Token("/")
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorStatus: http.StatusTooManyRequests})
	p := u.PostForm("/settings/trade-provider", url.Values{"_csrf": {tok}, "provider": {"TP-1"}})
	if p.Status != http.StatusTooManyRequests {
		t.Fatalf("trade-provider choice refused with 429: status %d", p.Status)
	}
	if ra := p.Header.Get("Retry-After"); ra == "" || ra == "0" {
		t.Errorf("429 page: Retry-After %q, want seconds until the limit renews", ra)
	}
}

// searchless is a service that does not offer Search to anyone.
func searchless(asked *atomic.Int32) func(http.Handler) http.Handler {
	return intercept("/v1/Business/Search", func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
		asked.Add(1)
		serviceAnswer(w, http.StatusNotFound, "NotFound", "no such operation")
	})
}

func TestServiceWithoutSearchHidesTheBoxAndIsNotAskedAgain(t *testing.T) {
	var asked atomic.Int32
	app := apptest.Start(t, apptest.Options{StandIn: searchless(&asked)})
	u := app.SignIn(t, "demo")
	if u.Get("/").Doc.Find(`input[name="q"]`).Length() == 0 {
		t.Fatal("the search box is not offered before the service said anything")
	}
	p := u.Get("/?q=North")
	if p.Status != http.StatusOK || p.Doc.Find(`input[name="q"]`).Length() != 0 {
		t.Errorf("after a 404 from Search: status %d, search box shown %d times; want 200 and none",
			p.Status, p.Doc.Find(`input[name="q"]`).Length())
	}
	u.Get("/?q=South")
	if n := asked.Load(); n != 1 {
		t.Errorf("Search asked %d times, want 1", n)
	}
	// Another user is asked for themself: access differs per account.
	app.SignIn(t, "developer").Get("/?q=North")
	if n := asked.Load(); n != 2 {
		t.Errorf("Search asked %d times after another user searched, want 2", n)
	}
}

func TestRequestIDIsEchoedWhenPlainAndReplacedOtherwise(t *testing.T) {
	app := apptest.Start(t, apptest.Options{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	u := app.NewUser(t)
	for in, keep := range map[string]bool{
		"abc-123_DEF":           true,
		"":                      false,
		"evil<script>":          false,
		"a b":                   false,
		strings.Repeat("x", 65): false,
	} {
		req, _ := http.NewRequest(http.MethodGet, app.URL+"/healthz", nil)
		req.Header.Set("X-Request-ID", in)
		got := u.Do(req).Header.Get("X-Request-ID")
		if keep && got != in || !keep && (got == in || got == "") {
			t.Errorf("X-Request-ID %q answered %q", in, got)
		}
	}
}

// An id from anyone but a trusted proxy is replaced: a client cannot pass
// its requests off as another's in the logs.
func TestRequestIDFromAnUntrustedClientIsReplaced(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.NewUser(t)
	req, _ := http.NewRequest(http.MethodGet, app.URL+"/healthz", nil)
	req.Header.Set("X-Request-ID", "abc-123_DEF")
	if got := u.Do(req).Header.Get("X-Request-ID"); got == "abc-123_DEF" || got == "" {
		t.Errorf("X-Request-ID from an untrusted client answered %q; want a new id", got)
	}
}

// Ids the dashboard gives are distinct, request after request.
func TestRequestIDsAreDistinct(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.NewUser(t)
	seen := map[string]bool{}
	for range 50 {
		id := u.Get("/healthz").Header.Get("X-Request-ID")
		if id == "" || seen[id] {
			t.Fatalf("request id %q is empty or given twice", id)
		}
		seen[id] = true
	}
}

// The page write deadline does not cut an export: the handler lifts it once
// the service's file starts to arrive.
func TestSlowExportOutlastsThePageWriteTimeout(t *testing.T) {
	app := apptest.Start(t, apptest.Options{PageWriteTimeout: 50 * time.Millisecond})
	u := app.SignIn(t, "demo")
	app.Sim.SetFaults(simulator.Faults{Latency: 300 * time.Millisecond})
	req, _ := http.NewRequest(http.MethodGet, app.URL+"/portfolio/export?format=csv", nil)
	resp, err := u.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK || !strings.HasPrefix(string(body), "BusinessId,") {
		t.Errorf("slow export: status %d, %d bytes, err %v; want the whole file", resp.StatusCode, len(body), err)
	}
}

func TestHeadAnswersLikeGet(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	for _, path := range []string{"/healthz", "/robots.txt", "/", "/businesses/1001", "/portfolio"} {
		req, _ := http.NewRequest(http.MethodHead, app.URL+path, nil)
		p := u.Do(req)
		if p.Status != http.StatusOK || p.Body != "" {
			t.Errorf("HEAD %s: status %d, %d body bytes; want 200 and none", path, p.Status, len(p.Body))
		}
	}
}

func TestRobotsKeepCrawlersOut(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	p := app.NewUser(t).Get("/robots.txt")
	if p.Status != http.StatusOK || !strings.Contains(p.Body, "Disallow: /") {
		t.Errorf("GET /robots.txt: status %d, %q", p.Status, p.Body)
	}
}

func TestOnlyCanonicalBusinessIDs(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	for _, path := range []string{"/businesses/+1001", "/businesses/01001", "/businesses/0", "/businesses/-1"} {
		if p := u.Get(path); p.Status != http.StatusBadRequest {
			t.Errorf("GET %s: status %d, want 400", path, p.Status)
		}
	}
}

// Every way a sign-in can fail shows its own message and keeps the user
// name as typed.
func TestEverySignInFailureKeepsTheUserName(t *testing.T) {
	app := apptest.Start(t, apptest.Options{WrapService: func(c *upstream.Client) handlers.Service { return pickyLogin{c} }})
	cases := []struct {
		name       string
		user, pass string
		faults     simulator.Faults
		wantStatus int
		wantText   string
	}{
		{"wrong password", "demo", "nope", simulator.Faults{}, http.StatusUnauthorized, "password"},
		{"limited", "demo", "demo", simulator.Faults{ErrorRate: 1, ErrorStatus: 429, ErrorPaths: []string{"/v1/Users/Login"}},
			http.StatusTooManyRequests, "refusing sign-ins"},
		{"service failing", "demo", "demo", simulator.Faults{ErrorRate: 1, ErrorStatus: 500, ErrorPaths: []string{"/v1/Users/Login"}},
			http.StatusBadGateway, "not answering"},
		{"refused", "bad user", "demo", simulator.Faults{}, http.StatusUnauthorized, "characters we do not accept"},
		{"password too long", "demo", strings.Repeat("p", 300), simulator.Faults{}, http.StatusUnprocessableEntity, "too long"},
	}
	for _, c := range cases {
		app.Sim.SetFaults(c.faults)
		p := app.NewUser(t).Login(c.user, c.pass, "")
		if p.Status != c.wantStatus {
			t.Errorf("%s: status %d, want %d", c.name, p.Status, c.wantStatus)
		}
		if got, _ := p.Doc.Find(`input[name="username"]`).Attr("value"); got != c.user {
			t.Errorf("%s: user name field %q, want %q kept", c.name, got, c.user)
		}
		msg := p.Text(".error, [role=alert]")
		if msg == "" || !strings.Contains(msg, c.wantText) {
			t.Errorf("%s: message %q, want one saying %q", c.name, msg, c.wantText)
		}
	}
	app.Sim.SetFaults(simulator.Faults{})
	// A two-factor account is no failure: it goes on to the code form.
	if p := app.NewUser(t).Login("secure", "demo", ""); p.Status != http.StatusSeeOther || p.Location() != "/login/verify" {
		t.Errorf("two-factor: status %d to %q, want 303 to /login/verify", p.Status, p.Location())
	}
}

// pickyLogin is a service that answers 400 to user names with a space.
type pickyLogin struct{ *upstream.Client }

func (p pickyLogin) SignIn(ctx context.Context, cr upstream.Credentials) (upstream.LoginResult, error) {
	if strings.Contains(cr.User, " ") {
		return upstream.LoginResult{}, &upstream.Error{Op: "Users/Login", Status: http.StatusBadRequest,
			Kind: upstream.ErrBadRequest, Message: "The user name has characters we do not accept."}
	}
	return p.Client.SignIn(ctx, cr)
}

// hugeKeyService signs in with a session key too long for any cookie.
type hugeKeyService struct{ *upstream.Client }

func (h hugeKeyService) SignIn(ctx context.Context, cr upstream.Credentials) (upstream.LoginResult, error) {
	res, err := h.Client.SignIn(ctx, cr)
	res.SessionKey = strings.Repeat("k", 3000)
	return res, err
}

// A service key too long to keep in a cookie is told on the sign-in form,
// never a 500.
func TestOversizedServiceKeyIsToldOnTheForm(t *testing.T) {
	app := apptest.Start(t, apptest.Options{WrapService: func(c *upstream.Client) handlers.Service { return hugeKeyService{c} }})
	p := app.NewUser(t).Login("demo", "demo", "")
	if p.Status != http.StatusBadGateway || !strings.Contains(p.Text(".form-error"), "too long to keep in your browser") {
		t.Errorf("a 3,000-character key: status %d, message %q", p.Status, p.Text(".form-error"))
	}
	if got, _ := p.Doc.Find(`input[name="username"]`).Attr("value"); got != "demo" {
		t.Errorf("user name field %q, want demo kept", got)
	}
}
