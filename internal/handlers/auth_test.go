package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream/simulator"
)

func TestSignInLandsOnHomeWithSignOutButton(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.NewUser(t)

	form := u.Get("/login")
	if form.Status != http.StatusOK {
		t.Fatalf("GET /login: status = %d, want 200", form.Status)
	}
	for _, sel := range []string{`input[name="username"]`, `input[name="password"][type="password"]`, `input[name="_csrf"]`} {
		if form.Doc.Find(sel).Length() != 1 {
			t.Errorf("GET /login: no %s in the form", sel)
		}
	}

	p := u.Login("demo", "demo", "")
	if p.Status != http.StatusSeeOther || p.Location() != "/" {
		t.Fatalf("POST /login: status = %d, location %q; want 303 to /", p.Status, p.Location())
	}
	home := u.Get("/")
	if home.Status != http.StatusOK {
		t.Fatalf("GET /: status = %d, want 200", home.Status)
	}
	if got := home.Text("header .user"); got != "demo" {
		t.Errorf("GET /: header user = %q, want demo", got)
	}
	if home.Doc.Find(`form[action="/logout"][method="post"] input[name="_csrf"]`).Length() != 1 {
		t.Errorf("GET /: no sign-out form with a CSRF token")
	}
}

func TestSessionCookieFlags(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.NewUser(t)
	p := u.Login("demo", "demo", "")
	var session *http.Cookie
	for _, c := range (&http.Response{Header: p.Header}).Cookies() {
		if c.Name == "creditdash_session" {
			session = c
		}
	}
	if session == nil {
		t.Fatal("POST /login: no session cookie set")
	}
	if !session.HttpOnly || session.SameSite != http.SameSiteLaxMode {
		t.Errorf("session cookie: HttpOnly=%v SameSite=%v, want true and Lax", session.HttpOnly, session.SameSite)
	}
	if session.MaxAge <= 0 || session.MaxAge > 24*3600 {
		t.Errorf("session cookie: MaxAge = %d, want a bounded lifetime", session.MaxAge)
	}
	if session.Path != "/" {
		t.Errorf("session cookie: Path = %q, want /", session.Path)
	}
}

func TestWrongPasswordKeepsUsernameAndShowsServiceMessage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.NewUser(t)
	p := u.Login("demo", "wrong", "")
	if p.Status != http.StatusUnauthorized {
		t.Fatalf("POST /login with a wrong password: status = %d, want 401", p.Status)
	}
	if got, _ := p.Doc.Find(`input[name="username"]`).Attr("value"); got != "demo" {
		t.Errorf("username kept = %q, want demo", got)
	}
	if got, _ := p.Doc.Find(`input[name="password"]`).Attr("value"); got != "" {
		t.Errorf("password echoed back into the form")
	}
	msg := p.Text("#login-error")
	if msg == "" {
		t.Fatal("no error message shown")
	}
	// The message is the service's own sentence, not one of ours.
	if strings.Contains(msg, "The user name or password is not correct.") {
		t.Errorf("message %q is our fallback, want the service's text", msg)
	}
	if u.Get("/").Status != http.StatusSeeOther {
		t.Errorf("after a failed sign-in, / must still redirect to sign-in")
	}
}

func TestEmptyCredentialsAreRefusedBeforeTheService(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.NewUser(t)
	p := u.Login("", "", "")
	if p.Status != http.StatusUnprocessableEntity {
		t.Fatalf("POST /login empty: status = %d, want 422", p.Status)
	}
	if counts := app.Sim.Requests(); len(counts) != 0 {
		t.Errorf("empty sign-in reached the service: %v", counts)
	}
}

func TestSharedLinkLandsExactlyThereAfterSignIn(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.NewUser(t)
	const shared = "/businesses/1001/payments?x=1"
	p := u.Get(shared)
	if p.Status != http.StatusSeeOther {
		t.Fatalf("GET %s signed out: status = %d, want 303", shared, p.Status)
	}
	loc, err := url.Parse(p.Location())
	if err != nil || loc.Path != "/login" || loc.Query().Get("next") != shared {
		t.Fatalf("GET %s signed out: location = %q, want /login?next=%s", shared, p.Location(), shared)
	}
	form := u.Get(p.Location())
	if got, _ := form.Doc.Find(`input[name="next"]`).Attr("value"); got != shared {
		t.Fatalf("sign-in form next = %q, want %q", got, shared)
	}
	done := u.Login("demo", "demo", shared)
	if done.Location() != shared {
		t.Fatalf("after sign-in: location = %q, want %q", done.Location(), shared)
	}
}

func TestHostileNextIsRefused(t *testing.T) {
	hostile := []string{
		"//evil.example/x",
		"http://evil.example/",
		"https:evil.example",
		"javascript:alert(1)",
		`/\evil.example`,
		`\\evil.example`,
		"/%2F%2Fevil.example",
		"/%5Cevil.example",
		"/%2f/evil.example",
		"evil.example",
		"/\tevil",
		"/login?next=//evil.example",
		"/ok\r\nSet-Cookie: x=1",
	}
	app := apptest.Start(t, apptest.Options{})
	for _, next := range hostile {
		t.Run(next, func(t *testing.T) {
			u := app.NewUser(t)
			p := u.Login("demo", "demo", next)
			if p.Status != http.StatusSeeOther || p.Location() != "/" {
				t.Errorf("next=%q: status %d, location %q; want 303 to /", next, p.Status, p.Location())
			}
			// Posted directly, without the form's own filtering.
			u2 := app.NewUser(t)
			tok := u2.Token("/login")
			p = u2.PostForm("/login", url.Values{"_csrf": {tok}, "username": {"demo"}, "password": {"demo"}, "next": {next}})
			if p.Location() != "/" {
				t.Errorf("posted next=%q: location %q, want /", next, p.Location())
			}
		})
	}
}

func TestSignedInVisitToLoginGoesOn(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	p := u.Get("/login?next=%2Fportfolio")
	if p.Status != http.StatusSeeOther || p.Location() != "/portfolio" {
		t.Errorf("GET /login signed in: status %d location %q, want 303 to /portfolio", p.Status, p.Location())
	}
}

func TestSignOut(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	tok := u.Token("/")
	p := u.PostForm("/logout", url.Values{"_csrf": {tok}})
	if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location(), "/login") {
		t.Fatalf("POST /logout: status %d location %q, want 303 to /login", p.Status, p.Location())
	}
	if got := u.Get("/"); got.Status != http.StatusSeeOther {
		t.Errorf("GET / after sign-out: status %d, want 303 to sign-in", got.Status)
	}
	notice := u.Get(p.Location())
	if !strings.Contains(notice.Text(".notice"), "signed out") {
		t.Errorf("sign-in page after sign-out: notice %q", notice.Text(".notice"))
	}
}

func TestExpiredServiceSessionReturnsToSignIn(t *testing.T) {
	clock := newClock(time.Now())
	app := apptest.Start(t, apptest.Options{Sim: simulator.Options{Now: clock.Now, SessionTTL: time.Hour}})
	u := app.SignIn(t, "demo")
	clock.Advance(61 * time.Minute)

	const page = "/?q=North"
	p := u.Get(page)
	if p.Status != http.StatusSeeOther {
		t.Fatalf("GET %s with an expired key: status %d, want 303", page, p.Status)
	}
	loc, _ := url.Parse(p.Location())
	if loc.Path != "/login" || loc.Query().Get("next") != page || loc.Query().Get("reason") != "expired" {
		t.Fatalf("location = %q, want /login with next=%s and reason=expired", p.Location(), page)
	}
	if !sessionCleared(p.Header) {
		t.Errorf("the session cookie was not cleared")
	}
	login := u.Get(p.Location())
	if !strings.Contains(login.Text(".notice"), "session expired") {
		t.Errorf("sign-in page notice = %q, want it to say the session expired", login.Text(".notice"))
	}
	if back := u.Login("demo", "demo", page); back.Location() != page {
		t.Errorf("after signing in again: location %q, want %q", back.Location(), page)
	}
}

func sessionCleared(h http.Header) bool {
	for _, c := range (&http.Response{Header: h}).Cookies() {
		if c.Name == "creditdash_session" && c.MaxAge < 0 {
			return true
		}
	}
	return false
}

func TestTamperedCookieCountsAsSignedOut(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	var tampered []*http.Cookie
	for _, c := range u.Cookies() {
		if c.Name == "creditdash_session" {
			b := []byte(c.Value)
			b[len(b)/2] ^= 0x01
			if b[len(b)/2] == '=' || b[len(b)/2] < 0x21 {
				b[len(b)/2] = 'A'
			}
			tampered = append(tampered, &http.Cookie{Name: c.Name, Value: string(b), Path: "/"})
		}
	}
	if len(tampered) == 0 {
		t.Fatal("no session cookie to tamper with")
	}
	u.SetCookies(tampered)
	p := u.Get("/")
	if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location(), "/login") {
		t.Errorf("GET / with a tampered cookie: status %d location %q, want 303 to /login", p.Status, p.Location())
	}
}

// clock is a settable clock shared by the stand-in and tests.
type clock struct{ c chan time.Time }

func newClock(t time.Time) *clock {
	c := &clock{c: make(chan time.Time, 1)}
	c.c <- t
	return c
}

func (c *clock) Now() time.Time {
	t := <-c.c
	c.c <- t
	return t
}

func (c *clock) Advance(d time.Duration) {
	t := <-c.c
	c.c <- t.Add(d)
}

// A cookie copied before sign-out opens nothing afterwards, and signing in
// again works at once.
func TestSignOutRevokesCopiedCookies(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	copied := u.Cookies()
	tok := u.Token("/")
	if p := u.PostForm("/logout", url.Values{"_csrf": {tok}}); p.Status != http.StatusSeeOther {
		t.Fatalf("POST /logout: status %d", p.Status)
	}
	thief := app.NewUser(t)
	thief.SetCookies(copied)
	if p := thief.Get("/businesses/1001"); p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location(), "/login") {
		t.Errorf("a cookie copied before sign-out: status %d to %q, want the sign-in page", p.Status, p.Location())
	}
	again := app.SignIn(t, "demo")
	if p := again.Get("/"); p.Status != http.StatusOK {
		t.Errorf("signing in again right after signing out: status %d", p.Status)
	}
}
