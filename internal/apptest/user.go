package apptest

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/session"
)

// User is one browser-like client of the dashboard: it keeps cookies and
// does not follow redirects, so tests see every hop.
type User struct {
	t      testing.TB
	app    *App
	client *http.Client
	// Header is sent with every request (e.g. Sec-Fetch-Site).
	Header http.Header
}

// Page is one response, read whole.
type Page struct {
	Status int
	Header http.Header
	Body   string
	Doc    *goquery.Document
}

// Location is the redirect target, or "".
func (p *Page) Location() string { return p.Header.Get("Location") }

// Text is the visible text of the elements matching sel, whitespace folded.
func (p *Page) Text(sel string) string {
	return strings.Join(strings.Fields(p.Doc.Find(sel).Text()), " ")
}

// NewUser returns a signed-out user.
func (a *App) NewUser(t testing.TB) *User {
	jar, _ := cookiejar.New(nil)
	return &User{
		t:   t,
		app: a,
		client: &http.Client{
			Jar:           jar,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		Header: http.Header{},
	}
}

// SignIn signs in through the form and fails the test if it does not work.
func (a *App) SignIn(t testing.TB, username string) *User {
	t.Helper()
	u := a.NewUser(t)
	p := u.Login(username, "demo", "")
	if p.Status != http.StatusSeeOther {
		t.Fatalf("sign in as %s: status = %d, want 303; body: %.300s", username, p.Status, p.Body)
	}
	return u
}

// Login fetches the sign-in form and posts it with the CSRF token.
func (u *User) Login(username, password, next string) *Page {
	u.t.Helper()
	path := "/login"
	if next != "" {
		path += "?next=" + url.QueryEscape(next)
	}
	form := u.Get(path)
	token, _ := form.Doc.Find(`input[name="_csrf"]`).Attr("value")
	nextField, _ := form.Doc.Find(`input[name="next"]`).Attr("value")
	return u.PostForm("/login", url.Values{
		"_csrf": {token}, "username": {username}, "password": {password}, "next": {nextField},
	})
}

// Get requests path (with its query).
func (u *User) Get(path string) *Page {
	u.t.Helper()
	req, err := http.NewRequest(http.MethodGet, u.app.URL+path, nil)
	if err != nil {
		u.t.Fatal(err)
	}
	return u.Do(req)
}

// PostForm posts a form to path.
func (u *User) PostForm(path string, form url.Values) *Page {
	u.t.Helper()
	req, err := http.NewRequest(http.MethodPost, u.app.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		u.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return u.Do(req)
}

// Token returns the CSRF token of the page at path, for a form post.
func (u *User) Token(path string) string {
	u.t.Helper()
	tok, _ := u.Get(path).Doc.Find(`input[name="_csrf"]`).Attr("value")
	return tok
}

// Do sends req with the user's cookies and headers and reads the answer.
func (u *User) Do(req *http.Request) *Page {
	u.t.Helper()
	for k, v := range u.Header {
		req.Header[k] = v
	}
	resp, err := u.client.Do(req)
	if err != nil {
		u.t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		u.t.Fatalf("%s %s: reading body: %v", req.Method, req.URL.Path, err)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(body)))
	if err != nil {
		u.t.Fatalf("%s %s: parsing HTML: %v", req.Method, req.URL.Path, err)
	}
	return &Page{Status: resp.StatusCode, Header: resp.Header, Body: string(body), Doc: doc}
}

// Cookies returns the user's cookies for the dashboard.
func (u *User) Cookies() []*http.Cookie {
	base, _ := url.Parse(u.app.URL)
	return u.client.Jar.Cookies(base)
}

// SetCookies replaces cookies of the dashboard (tampering tests).
func (u *User) SetCookies(cookies []*http.Cookie) {
	base, _ := url.Parse(u.app.URL)
	u.client.Jar.SetCookies(base, cookies)
}

// Client is the user's HTTP client (cookies, no redirects).
func (u *User) Client() *http.Client { return u.client }

// SessionKey opens the user's session cookie with the test secret and
// returns the service's session key, so a test can call the stand-in
// directly as this user (to compare bytes, say).
func (u *User) SessionKey() string {
	u.t.Helper()
	store, err := session.NewStore([]string{TestSecret}, false, time.Hour)
	if err != nil {
		u.t.Fatal(err)
	}
	store.BindService(u.app.service)
	r, _ := http.NewRequest(http.MethodGet, "/", nil)
	for _, c := range u.Cookies() {
		r.AddCookie(c)
	}
	s, ok := store.Load(r)
	if !ok {
		u.t.Fatal("apptest: the user has no readable session cookie")
	}
	return s.Key
}

// Form returns the fields of the form sel on the page (hidden ones
// included) and where it posts; ok is false when the page has no such form.
func (p *Page) Form(sel string) (action string, fields url.Values, ok bool) {
	form := p.Doc.Find(sel).First()
	if form.Length() == 0 {
		return "", nil, false
	}
	fields = url.Values{}
	form.Find("input[name]").Each(func(_ int, in *goquery.Selection) {
		name, _ := in.Attr("name")
		value, _ := in.Attr("value")
		fields.Add(name, value)
	})
	action, _ = form.Attr("action")
	return action, fields, true
}

// Submit posts the form sel of page p as a browser would, failing the test
// when the page has no such form.
func (u *User) Submit(p *Page, sel string) *Page {
	u.t.Helper()
	action, fields, ok := p.Form(sel)
	if !ok {
		u.t.Fatalf("the page has no form %q", sel)
	}
	return u.PostForm(action, fields)
}
