package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"creditdash/internal/api"
	"creditdash/internal/apptest"
	"creditdash/internal/roles"
	"creditdash/internal/store/storetest"
)

// teamRoles are the roles of these tests: two managers of different
// authority, an analyst and an auditor.
const teamRoles = "demo=manager:250000,ordinary=manager:1000000,developer=analyst:10000,trade=auditor"

// clock is the apps' clock: the real time moved by a test's jumps.
type clock struct{ ahead atomic.Int64 }

func (c *clock) Now() time.Time { return time.Now().Add(time.Duration(c.ahead.Load())) }

// jump moves the clock d forward.
func (c *clock) jump(d time.Duration) { c.ahead.Add(int64(d)) }

// engines runs fn on SQLite and PostgreSQL with teamRoles.
func engines(t *testing.T, fn func(t *testing.T, app *apptest.App, clk *clock)) {
	table, err := roles.Parse("test", teamRoles, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("sqlite", func(t *testing.T) {
		clk := &clock{}
		fn(t, apptest.Start(t, apptest.Options{Roles: table, Now: clk.Now}), clk)
	})
	t.Run("postgres", func(t *testing.T) {
		clk := &clock{}
		fn(t, apptest.Start(t, apptest.Options{Roles: table, Now: clk.Now, DatabaseURL: storetest.Database(t)}), clk)
	})
}

// member is a signed-in member of the team with a CSRF token for forms.
type member struct {
	*apptest.User
	t    *testing.T
	csrf string
}

// signIn signs name in.
func signIn(t *testing.T, app *apptest.App, name string) *member {
	t.Helper()
	u := app.SignIn(t, name)
	tok := u.Token("/settings/tokens")
	if tok == "" {
		t.Fatal("no CSRF token on /settings/tokens")
	}
	return &member{User: u, t: t, csrf: tok}
}

// post sends a form with the CSRF token.
func (m *member) post(path string, kv ...string) *apptest.Page {
	m.t.Helper()
	form := url.Values{"_csrf": {m.csrf}}
	for i := 0; i+1 < len(kv); i += 2 {
		form.Add(kv[i], kv[i+1])
	}
	return m.PostForm(path, form)
}

// makeToken makes a token on /settings/tokens and returns its secret.
func (m *member) makeToken(name, scope string, days int, now time.Time) string {
	m.t.Helper()
	p := m.post("/settings/tokens", "name", name, "scope", scope, "expires", now.UTC().AddDate(0, 0, days).Format("2006-01-02"))
	secret, _ := p.Doc.Find("#token-secret").Attr("value")
	if p.Status != http.StatusOK || !strings.HasPrefix(secret, api.SecretPrefix) {
		m.t.Fatalf("make token %q: status %d, secret %q; %s", name, p.Status, secret, p.Text("main"))
	}
	return secret
}

// contract is the API's document, loaded and checked once.
var contract = sync.OnceValues(func() (routers.Router, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(api.Document)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, err
	}
	// The document's one server is "/", this deployment: paths are
	// matched as they are.
	doc.Servers = nil
	return legacy.NewRouter(doc)
})

// answer is one response of the API, read whole.
type answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// problem reads the answer as a problem.
func (a answer) problem(t *testing.T) api.Problem {
	t.Helper()
	var p api.Problem
	if ct := a.Header.Get("Content-Type"); ct != api.ProblemType {
		t.Fatalf("status %d: Content-Type %q, want %s; body %s", a.Status, ct, api.ProblemType, a.Body)
	}
	if err := json.Unmarshal(a.Body, &p); err != nil || p.Status != a.Status || p.Type != "about:blank" || p.Detail == "" {
		t.Fatalf("status %d: not a problem of its status: %s (%v)", a.Status, a.Body, err)
	}
	return p
}

// into decodes the answer's JSON, failing the test on another status.
func (a answer) into(t *testing.T, status int, v any) {
	t.Helper()
	if a.Status != status {
		t.Fatalf("status %d, want %d; body %s", a.Status, status, a.Body)
	}
	if err := json.Unmarshal(a.Body, v); err != nil {
		t.Fatalf("decoding %s: %v", a.Body, err)
	}
}

// call sends a request to the API with the token (none when "") and checks
// the answer against the OpenAPI document: its status is documented for
// the operation and its headers and body are as documented. A path the
// document does not have must answer a problem.
func call(t *testing.T, app *apptest.App, token, method, path, contentType string, body []byte) answer {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, app.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	a := answer{Status: resp.StatusCode, Header: resp.Header, Body: data}
	router, err := contract()
	if err != nil {
		t.Fatalf("the OpenAPI document: %v", err)
	}
	match, _ := http.NewRequest(method, "http://creditdash.test"+path, nil)
	route, params, err := router.FindRoute(match)
	if err != nil {
		if a.Status < 400 {
			t.Fatalf("%s %s: %d for a path the document lacks (%v)", method, path, a.Status, err)
		}
		a.problem(t)
		return a
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: match, PathParams: params, Route: route},
		Status:                 a.Status,
		Header:                 a.Header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(data)
	if err := openapi3filter.ValidateResponse(t.Context(), in); err != nil {
		t.Errorf("%s %s: the %d answer is not as openapi.json documents it: %v\nbody: %.600s", method, path, a.Status, err, data)
	}
	return a
}

// get is call for a GET.
func get(t *testing.T, app *apptest.App, token, path string) answer {
	t.Helper()
	return call(t, app, token, http.MethodGet, path, "", nil)
}

// postJSON is call for a POST of v as JSON.
func postJSON(t *testing.T, app *apptest.App, token, path string, v any) answer {
	t.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return call(t, app, token, http.MethodPost, path, "application/json", body)
}
