package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/handlers"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/simulator"
)

// secrets collects every code, pending key and browser key a test met, so
// it can check that none leaked into a page, a Location or the logs.
type secrets struct {
	mu   sync.Mutex
	seen []string
}

func (s *secrets) add(v string) {
	if v == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, v)
}

// check fails when any secret appears in p or the logs.
func (s *secrets) check(t *testing.T, app *apptest.App, where string, p *apptest.Page) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.seen {
		if p != nil && (strings.Contains(p.Body, v) || strings.Contains(p.Location(), v)) {
			t.Errorf("%s: a code or key (%.3s…) is in the page or its Location", where, v)
		}
		if app.Logs.Contains(v) {
			t.Errorf("%s: a code or key (%.3s…) is in the logs", where, v)
		}
	}
}

// recording is the service as the handlers call it, remembering the keys
// it handled and the browser key each sign-in sent.
type recording struct {
	*upstream.Client
	keys  *secrets
	mu    sync.Mutex
	sent  []string // Credentials.BrowserKey of each SignIn
	codes int      // TwoFactorKey calls
}

func (r *recording) SignIn(ctx context.Context, cr upstream.Credentials) (upstream.LoginResult, error) {
	r.mu.Lock()
	r.sent = append(r.sent, cr.BrowserKey)
	r.mu.Unlock()
	res, err := r.Client.SignIn(ctx, cr)
	r.keys.add(res.SessionKey)
	r.keys.add(res.BrowserKey)
	return res, err
}

func (r *recording) TwoFactorKey(ctx context.Context, pendingKey, code string) (upstream.LoginResult, error) {
	r.keys.add(code)
	r.mu.Lock()
	r.codes++
	r.mu.Unlock()
	res, err := r.Client.TwoFactorKey(ctx, pendingKey, code)
	r.keys.add(res.BrowserKey)
	return res, err
}

// lastSent is the browser key the latest sign-in sent.
func (r *recording) lastSent() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.sent) == 0 {
		return ""
	}
	return r.sent[len(r.sent)-1]
}

// calls is how many sign-ins and codes reached the service.
func (r *recording) calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sent) + r.codes
}

// loginCookie is the user's cookie name as the browser sends it to /login
// paths, or nil.
func loginCookie(t *testing.T, app *apptest.App, u *apptest.User, name string) *http.Cookie {
	t.Helper()
	base, err := url.Parse(app.URL + "/login/verify")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range u.Client().Jar.Cookies(base) {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// twoFactorApp starts the dashboard with a second two-factor account,
// "secure2", and a recording service, on a clock tests can move.
func twoFactorApp(t *testing.T) (*apptest.App, *recording, *clock) {
	t.Helper()
	data := *apptest.DemoData()
	data.Users = append(slices.Clone(data.Users), simulator.User{Username: "secure2", Password: "demo", UserID: 99,
		Type: simulator.UserAPIUser, Access: simulator.AccessFull, TwoFactor: true, BrowserVerification: true})
	clk := newClock(time.Now())
	rec := &recording{keys: &secrets{}}
	app := apptest.Start(t, apptest.Options{
		Data: &data,
		Sim:  simulator.Options{Now: clk.Now},
		Now:  clk.Now,
		WrapService: func(c *upstream.Client) handlers.Service {
			rec.Client = c
			return rec
		},
	})
	return app, rec, clk
}

// code is the code the stand-in last sent to user.
func code(t *testing.T, app *apptest.App, user string) string {
	t.Helper()
	c, ok := app.Sim.LastCode(user)
	if !ok {
		t.Fatalf("the stand-in sent no code to %s", user)
	}
	return c
}

// startSignIn signs in as user through the form and expects the code form.
func startSignIn(t *testing.T, u *apptest.User, user, next string) *apptest.Page {
	t.Helper()
	p := u.Login(user, "demo", next)
	if p.Status != http.StatusSeeOther || p.Location() != "/login/verify" {
		t.Fatalf("sign in as %s: status %d to %q, want 303 to /login/verify", user, p.Status, p.Location())
	}
	form := u.Get("/login/verify")
	if form.Status != http.StatusOK {
		t.Fatalf("GET /login/verify: status = %d, want 200", form.Status)
	}
	return form
}

// sendCode posts code on the code form page, ticking remember or not.
func sendCode(t *testing.T, u *apptest.User, form *apptest.Page, code string, remember bool) *apptest.Page {
	t.Helper()
	_, fields, ok := form.Form("#verify-form")
	if !ok {
		t.Fatal("the code page has no #verify-form")
	}
	fields.Set("code", code)
	if !remember {
		fields.Del("remember")
	}
	return u.PostForm("/login/verify", fields)
}

// A shared link, a two-factor account, the code: the analyst lands on the
// linked page, signed in, and nothing secret showed anywhere.
func TestTwoFactorSignInLandsOnTheSharedLink(t *testing.T) {
	app, rec, _ := twoFactorApp(t)
	u := app.NewUser(t)
	p := u.Get("/businesses/1001")
	if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location(), "/login?") {
		t.Fatalf("GET /businesses/1001 signed out: status %d to %q, want 303 to /login", p.Status, p.Location())
	}
	form := startSignIn(t, u, "secure", "/businesses/1001")
	rec.keys.check(t, app, "after sign-in", form)
	in := form.Doc.Find(`#verify-form input[name="code"]`)
	if ac, _ := in.Attr("autocomplete"); ac != "one-time-code" {
		t.Errorf("code field autocomplete = %q, want one-time-code", ac)
	}
	if im, _ := in.Attr("inputmode"); im != "numeric" {
		t.Errorf("code field inputmode = %q, want numeric", im)
	}
	if form.Doc.Find(`label[for="code"]`).Length() == 0 {
		t.Error("the code field has no label")
	}
	if !strings.Contains(form.Text("#verify-form"), "Remember this browser for 30 days") {
		t.Error("no \"Remember this browser for 30 days\" on the code form")
	}
	if tok, _ := form.Doc.Find(`#verify-form input[name="_csrf"]`).Attr("value"); tok == "" {
		t.Error("the code form carries no CSRF token")
	}
	resend, _ := form.Doc.Find(`a:contains("Send a new code")`).Attr("href")
	if ru, err := url.Parse(resend); err != nil || ru.Path != "/login" || ru.Query().Get("next") != "/businesses/1001" || ru.Query().Get("username") != "secure" {
		t.Errorf("Send a new code links to %q, want /login with the next page and user name", resend)
	}
	if again := u.Get(resend); !strings.Contains(again.Body, `value="secure"`) {
		t.Error("Send a new code: the sign-in form lost the user name")
	}

	p = sendCode(t, u, form, code(t, app, "secure"), false)
	if p.Status != http.StatusSeeOther || p.Location() != "/businesses/1001" {
		t.Fatalf("POST /login/verify: status %d to %q, want 303 to /businesses/1001", p.Status, p.Location())
	}
	page := u.Get(p.Location())
	if page.Status != http.StatusOK {
		t.Fatalf("GET /businesses/1001 signed in: status = %d, want 200", page.Status)
	}
	rec.keys.check(t, app, "signed in", page)
	rec.keys.check(t, app, "verify answer", p)
	if loginCookie(t, app, u, "creditdash_2fa") != nil {
		t.Error("the pending cookie outlived the sign-in")
	}
	if u.Get("/login/verify").Location() != "/" {
		t.Error("GET /login/verify signed in, without a pending sign-in: want a redirect home")
	}
}

// A remembered browser skips the code next time, for that user only.
func TestTwoFactorRememberedBrowser(t *testing.T) {
	app, rec, _ := twoFactorApp(t)
	u := app.NewUser(t)
	form := startSignIn(t, u, "secure", "")
	if p := sendCode(t, u, form, code(t, app, "secure"), true); p.Status != http.StatusSeeOther || p.Location() != "/" {
		t.Fatalf("POST /login/verify: status %d to %q, want 303 to /", p.Status, p.Location())
	}
	remember := loginCookie(t, app, u, "creditdash_browser")
	if remember == nil {
		t.Fatal("remember ticked: no creditdash_browser cookie")
	}
	u.PostForm("/logout", url.Values{"_csrf": {u.Token("/")}})

	p := u.Login("secure", "demo", "/portfolio")
	if p.Status != http.StatusSeeOther || p.Location() != "/portfolio" {
		t.Fatalf("second sign-in on a remembered browser: status %d to %q, want 303 to /portfolio", p.Status, p.Location())
	}
	if rec.lastSent() == "" {
		t.Error("the second sign-in sent no browser key")
	}
	rec.keys.check(t, app, "remembered", u.Get("/portfolio"))

	// Another user name on the same browser: the key is not sent.
	other := app.NewUser(t)
	other.SetCookies([]*http.Cookie{{Name: remember.Name, Value: remember.Value, Path: "/login"}})
	startSignIn(t, other, "secure2", "")
	if rec.lastSent() != "" {
		t.Error("a browser key remembered for secure was sent for secure2")
	}
	// Not ticking remember keeps no cookie.
	third := app.NewUser(t)
	sendCode(t, third, startSignIn(t, third, "secure2", ""), code(t, app, "secure2"), false)
	if loginCookie(t, app, third, "creditdash_browser") != nil {
		t.Error("remember not ticked: a creditdash_browser cookie anyway")
	}
}

// A remember cookie earned by one user, or tampered with, is ignored: the
// code is asked for, and nothing breaks.
func TestTwoFactorForeignOrTamperedRememberCookie(t *testing.T) {
	app, rec, _ := twoFactorApp(t)
	u := app.NewUser(t)
	sendCode(t, u, startSignIn(t, u, "secure2", ""), code(t, app, "secure2"), true)
	remember := loginCookie(t, app, u, "creditdash_browser")
	if remember == nil {
		t.Fatal("no creditdash_browser cookie for secure2")
	}

	foreign := app.NewUser(t)
	foreign.SetCookies([]*http.Cookie{{Name: remember.Name, Value: remember.Value, Path: "/login"}})
	startSignIn(t, foreign, "secure", "")
	if rec.lastSent() != "" {
		t.Error("secure2's remembered browser key was sent for secure")
	}

	v := []byte(remember.Value)
	v[len(v)/2] ^= 1
	tampered := app.NewUser(t)
	tampered.SetCookies([]*http.Cookie{{Name: remember.Name, Value: string(v), Path: "/login"}})
	startSignIn(t, tampered, "secure2", "")
	if rec.lastSent() != "" {
		t.Error("a tampered remember cookie was sent as a browser key")
	}
	rec.keys.check(t, app, "foreign and tampered", nil)
}

// A wrong code keeps the form with the attempts left; the fifth locks the
// sign-in and sends the analyst back to /login with the reason.
func TestTwoFactorWrongCodes(t *testing.T) {
	app, rec, _ := twoFactorApp(t)
	u := app.NewUser(t)
	form := startSignIn(t, u, "secure", "/businesses/1001")
	right := code(t, app, "secure")
	wrong := "000000"
	if right == wrong {
		wrong = "111111"
	}
	rec.keys.add(right)

	for _, bad := range []string{"12", "12ab56", "12345678901"} {
		before := rec.calls()
		p := sendCode(t, u, form, bad, false)
		if p.Status != http.StatusUnprocessableEntity || p.Text("[role=alert]") == "" {
			t.Errorf("code %q: status %d, alert %q; want 422 with a message", bad, p.Status, p.Text("[role=alert]"))
		}
		if rec.calls() != before {
			t.Errorf("code %q: the service was asked", bad)
		}
	}

	page := form
	for i := 1; i < upstream.TwoFactorMaxAttempts; i++ {
		page = sendCode(t, u, page, wrong, false)
		if page.Status != http.StatusUnprocessableEntity {
			t.Fatalf("wrong code %d: status = %d, want 422", i, page.Status)
		}
		left := upstream.TwoFactorMaxAttempts - i
		want := fmt.Sprintf("%d attempts left", left)
		if left == 1 {
			want = "1 attempt left"
		}
		if msg := page.Text("[role=alert]"); !strings.Contains(msg, want) {
			t.Errorf("wrong code %d: message %q, want one saying %q", i, msg, want)
		}
		if page.Doc.Find(`#verify-form input[name="code"]`).Length() == 0 {
			t.Fatalf("wrong code %d: the form is gone", i)
		}
		if v, _ := page.Doc.Find(`#verify-form input[name="code"]`).Attr("value"); v != "" {
			t.Errorf("wrong code %d: the code field is filled with %q", i, v)
		}
	}
	p := sendCode(t, u, page, wrong, false)
	if p.Status != http.StatusSeeOther {
		t.Fatalf("fifth wrong code: status = %d, want 303", p.Status)
	}
	loc, _ := url.Parse(p.Location())
	if loc.Path != "/login" || loc.Query().Get("reason") == "" || loc.Query().Get("next") != "/businesses/1001" {
		t.Errorf("fifth wrong code: to %q, want /login with a reason and the next page", p.Location())
	}
	notice := u.Get(p.Location())
	if !strings.Contains(notice.Text("[role=status]"), "Too many wrong codes") {
		t.Errorf("after the lock: notice %q, want one about too many wrong codes", notice.Text("[role=status]"))
	}
	// The right code cannot rescue a locked sign-in: it is gone.
	if p := sendCode(t, u, page, right, false); p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location(), "/login?") {
		t.Errorf("right code after the lock: status %d to %q, want 303 to /login", p.Status, p.Location())
	}
	rec.keys.check(t, app, "wrong codes", notice)
	if p := u.Get("/"); p.Status != http.StatusSeeOther {
		t.Errorf("GET / after a locked sign-in: status = %d, want 303 to sign in", p.Status)
	}
}

// A sign-in that waited too long, at the service or in the dashboard, goes
// back to /login with the reason.
func TestTwoFactorExpired(t *testing.T) {
	app, rec, clk := twoFactorApp(t)

	// The service's pending key expires first (5 minutes).
	u := app.NewUser(t)
	form := startSignIn(t, u, "secure", "/portfolio")
	clk.Advance(upstream.TwoFactorPendingLifetime + time.Second)
	p := sendCode(t, u, form, code(t, app, "secure"), false)
	loc, _ := url.Parse(p.Location())
	if p.Status != http.StatusSeeOther || loc.Path != "/login" || loc.Query().Get("reason") == "" || loc.Query().Get("next") != "/portfolio" {
		t.Fatalf("code after the service's deadline: status %d to %q, want 303 to /login with a reason", p.Status, p.Location())
	}
	if n := u.Get(p.Location()).Text("[role=status]"); !strings.Contains(n, "waited too long") {
		t.Errorf("notice %q, want one saying the sign-in waited too long", n)
	}

	// The dashboard's pending sign-in ends after 10 minutes; the form to
	// sign in again keeps the name and the page it was going to.
	u = app.NewUser(t)
	form = startSignIn(t, u, "secure", "/businesses/1001/payments")
	if until := form.Text(".lede time"); until == "" {
		t.Error("the code form does not say until when the code works")
	}
	clk.Advance(10*time.Minute + 50*time.Second)
	for _, step := range []string{"GET", "POST"} {
		var p *apptest.Page
		if step == "GET" {
			p = u.Get("/login/verify")
		} else {
			form = startSignIn(t, u, "secure", "/businesses/1001/payments")
			clk.Advance(10*time.Minute + 50*time.Second)
			p = sendCode(t, u, form, code(t, app, "secure"), false)
		}
		loc, _ := url.Parse(p.Location())
		if p.Status != http.StatusSeeOther || loc.Path != "/login" || loc.Query().Get("reason") != "code-expired" ||
			loc.Query().Get("username") != "secure" || loc.Query().Get("next") != "/businesses/1001/payments" {
			t.Errorf("%s after the pending sign-in's deadline: status %d to %q, want 303 to /login with the reason, the name and the next page", step, p.Status, p.Location())
		}
	}
	rec.keys.check(t, app, "expired", nil)
}

// The pending cookie is no session, a forged one is no pending sign-in,
// and the code form needs the CSRF token.
func TestTwoFactorPendingCookieIsNotASession(t *testing.T) {
	app, rec, _ := twoFactorApp(t)
	u := app.NewUser(t)
	form := startSignIn(t, u, "secure", "")
	pending := loginCookie(t, app, u, "creditdash_2fa")
	if pending == nil {
		t.Fatal("no creditdash_2fa cookie after a two-factor sign-in")
	}

	// Only the pending cookie, sent under every name the dashboard reads.
	for _, name := range []string{"creditdash_2fa", "creditdash_session"} {
		only := app.NewUser(t)
		only.SetCookies([]*http.Cookie{{Name: name, Value: pending.Value, Path: "/"}})
		if p := only.Get("/"); p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location(), "/login") {
			t.Errorf("GET / with the pending key as %s: status %d to %q, want 303 to /login", name, p.Status, p.Location())
		}
	}

	// A tampered pending cookie is no pending sign-in.
	v := []byte(pending.Value)
	v[len(v)/2] ^= 1
	forged := app.NewUser(t)
	forged.SetCookies([]*http.Cookie{{Name: pending.Name, Value: string(v), Path: "/login"}})
	if p := forged.Get("/login/verify"); p.Status != http.StatusSeeOther || !strings.Contains(p.Location(), "reason=") {
		t.Errorf("GET /login/verify with a tampered pending cookie: status %d to %q, want 303 to /login with a reason", p.Status, p.Location())
	}

	// Without the CSRF token the code is refused and the service not asked.
	_, fields, _ := form.Form("#verify-form")
	fields.Del("_csrf")
	fields.Set("code", code(t, app, "secure"))
	if p := u.PostForm("/login/verify", fields); p.Status != http.StatusForbidden {
		t.Errorf("POST /login/verify without a CSRF token: status = %d, want 403", p.Status)
	}
	// The cookie is sealed, HttpOnly, SameSite=Lax, for /login only.
	p := u.Login("secure", "demo", "")
	var raw string
	for _, sc := range p.Header.Values("Set-Cookie") {
		if strings.HasPrefix(sc, "creditdash_2fa=") {
			raw = sc
		}
	}
	for _, want := range []string{"Path=/login", "Max-Age=3600", "HttpOnly", "SameSite=Lax"} {
		if !strings.Contains(raw, want) {
			t.Errorf("pending cookie %q lacks %s", raw, want)
		}
	}
	rec.keys.check(t, app, "pending cookie", p)
}

// A two-factor sign-in abandoned at the code form cannot be finished by
// whoever uses the browser next: a plain sign-in and a sign-out both end it.
func TestTwoFactorAbandonedSignInEnds(t *testing.T) {
	app, _, _ := twoFactorApp(t)
	for _, then := range []string{"plain sign-in", "sign-out"} {
		u := app.NewUser(t)
		form := startSignIn(t, u, "secure", "")
		if p := u.Login("demo", "demo", ""); p.Status != http.StatusSeeOther {
			t.Fatalf("%s: sign in as demo: status %d", then, p.Status)
		}
		if then == "sign-out" {
			if p := u.PostForm("/logout", url.Values{"_csrf": {u.Token("/")}}); p.Status != http.StatusSeeOther {
				t.Fatalf("sign out: status %d", p.Status)
			}
		}
		if c := loginCookie(t, app, u, "creditdash_2fa"); c != nil {
			t.Errorf("after a %s: the pending cookie is still in the browser", then)
		}
		p := sendCode(t, u, form, code(t, app, "secure"), false)
		if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location(), "/login?") {
			t.Errorf("after a %s: the code of the abandoned sign-in: status %d to %q, want 303 to /login", then, p.Status, p.Location())
		}
	}
}

// A crafted return path too long for the pending cookie is dropped, not
// the sign-in: the code form opens and the analyst lands at home.
func TestTwoFactorLongReturnPath(t *testing.T) {
	app, _, _ := twoFactorApp(t)
	u := app.NewUser(t)
	next := "/portfolio/scores?" + strings.Repeat("&", 400)
	form := startSignIn(t, u, "secure", next)
	c := loginCookie(t, app, u, "creditdash_2fa")
	if c == nil || len(c.Name)+1+len(c.Value) > 4096 {
		t.Fatalf("pending cookie %v: want one that fits in 4096 bytes", c != nil)
	}
	p := sendCode(t, u, form, code(t, app, "secure"), false)
	if p.Status != http.StatusSeeOther || p.Location() != "/" {
		t.Errorf("the code: status %d to %q, want 303 to /", p.Status, p.Location())
	}
}

// A code sent twice (a double click, or a retry after a lost answer) ends
// the second time in a clear notice, not in a form that can never work.
func TestTwoFactorCodeSentTwice(t *testing.T) {
	app, _, _ := twoFactorApp(t)
	u := app.NewUser(t)
	form := startSignIn(t, u, "secure", "/portfolio")
	lost := twin(t, app, u)
	right := code(t, app, "secure")
	if p := sendCode(t, u, form, right, false); p.Location() != "/portfolio" {
		t.Fatalf("the code: to %q, want /portfolio", p.Location())
	}
	// The second post carries the cookies of the first, the answer to
	// which never arrived.
	p := sendCode(t, lost, form, right, false)
	loc, _ := url.Parse(p.Location())
	if p.Status != http.StatusSeeOther || loc.Path != "/login" || loc.Query().Get("next") != "/portfolio" || loc.Query().Get("username") != "secure" {
		t.Fatalf("the code again: status %d to %q, want 303 to /login with the user name and the next page", p.Status, p.Location())
	}
	if n := lost.Get(p.Location()).Text("[role=status]"); !strings.Contains(n, "no longer waits for a code") {
		t.Errorf("notice %q, want one saying the sign-in no longer waits for a code", n)
	}
	if c := loginCookie(t, app, lost, "creditdash_2fa"); c != nil {
		t.Error("the dead pending sign-in is still in the browser")
	}
}

// Two wrong codes that cross (two tabs, or a double click) do not make the
// form promise attempts the service no longer grants: the count is the
// service's.
func TestTwoFactorWrongCodesCross(t *testing.T) {
	app, _, _ := twoFactorApp(t)
	u := app.NewUser(t)
	form := startSignIn(t, u, "secure", "")
	other := twin(t, app, u)
	wrong := "000000"
	if code(t, app, "secure") == wrong {
		wrong = "111111"
	}
	sendCode(t, other, form, wrong, false)
	p := sendCode(t, u, form, wrong, false)
	want := fmt.Sprintf("%d attempts left", upstream.TwoFactorMaxAttempts-2)
	if msg := p.Text("[role=alert]"); p.Status != http.StatusUnprocessableEntity || !strings.Contains(msg, want) {
		t.Errorf("the second wrong code: status %d, message %q; want 422 saying %q", p.Status, msg, want)
	}
}

// twin is a second browser with u's cookies as they are now: the other
// tab, or the same post sent again.
func twin(t *testing.T, app *apptest.App, u *apptest.User) *apptest.User {
	t.Helper()
	o := app.NewUser(t)
	o.SetCookies(u.Cookies())
	if c := loginCookie(t, app, u, "creditdash_2fa"); c != nil {
		base, _ := url.Parse(app.URL + "/login/verify")
		o.Client().Jar.SetCookies(base, []*http.Cookie{{Name: c.Name, Value: c.Value, Path: "/login"}})
	}
	return o
}

// scripted is the service with the code step answered by answer.
type scripted struct {
	*upstream.Client
	answer func() (upstream.LoginResult, error)
}

func (s *scripted) TwoFactorKey(context.Context, string, string) (upstream.LoginResult, error) {
	return s.answer()
}

// The code step's other answers: a refusal with a time, an ended key and
// an answer that asks for a code again each say what they mean.
func TestTwoFactorServiceAnswers(t *testing.T) {
	svc := &scripted{}
	app := apptest.Start(t, apptest.Options{WrapService: func(c *upstream.Client) handlers.Service {
		svc.Client = c
		return svc
	}})
	start := func() (*apptest.User, *apptest.Page) {
		u := app.NewUser(t)
		return u, startSignIn(t, u, "secure", "/portfolio")
	}

	svc.answer = func() (upstream.LoginResult, error) {
		return upstream.LoginResult{}, &upstream.Error{Op: "Users/2FAKey", Status: 429, Code: upstream.CodeRateLimitExceeded,
			Kind: upstream.ErrRateLimited, RetryAfter: 2 * time.Minute}
	}
	u, form := start()
	p := sendCode(t, u, form, "123456", false)
	if p.Status != http.StatusTooManyRequests || p.Header.Get("Retry-After") != "120" || !strings.Contains(p.Text("[role=alert]"), "until ") {
		t.Errorf("429 for 2 minutes: status %d, Retry-After %q, message %q; want 429, 120 and the time", p.Status, p.Header.Get("Retry-After"), p.Text("[role=alert]"))
	}
	if p.Doc.Find(`#verify-form`).Length() != 1 {
		t.Error("429: the code form is gone")
	}

	svc.answer = func() (upstream.LoginResult, error) {
		return upstream.LoginResult{}, &upstream.Error{Op: "Users/2FAKey", Status: 403, Code: "Forbidden", Kind: upstream.ErrTwoFactorExpired}
	}
	u, form = start()
	p = sendCode(t, u, form, "123456", false)
	if loc, _ := url.Parse(p.Location()); p.Status != http.StatusSeeOther || loc.Query().Get("reason") != "code-gone" {
		t.Errorf("403 Forbidden: status %d to %q, want 303 to /login with reason code-gone", p.Status, p.Location())
	}

	svc.answer = func() (upstream.LoginResult, error) {
		return upstream.LoginResult{SessionKey: "next-pending-key", Username: "secure", TwoFactorAuthenticationRequired: true}, nil
	}
	u, form = start()
	p = sendCode(t, u, form, "123456", false)
	if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text("[role=alert]"), "sent a new code") {
		t.Errorf("an answer asking for a code: status %d, message %q; want 422 saying a new code was sent", p.Status, p.Text("[role=alert]"))
	}
	if g := u.Get("/"); g.Status != http.StatusSeeOther {
		t.Errorf("GET / after an answer asking for a code: status %d, want 303 to sign in (no session)", g.Status)
	}
	if strings.Contains(p.Body, "next-pending-key") || app.Logs.Contains("next-pending-key") {
		t.Error("the new pending key is in the page or the logs")
	}
}
