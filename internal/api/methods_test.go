package api_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/roles"
)

// TestWrongMethodAnswers405: a path of the API asked with a method it does
// not take answers 405 with Allow naming the methods it takes, as a
// problem, with or without a token (OPTIONS too: the API takes no
// preflight); a path the API lacks stays 404. The router holds nothing of the store, so one
// engine is enough.
func TestWrongMethodAnswers405(t *testing.T) {
	table, err := roles.Parse("test", teamRoles, 0)
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{}
	app := apptest.Start(t, apptest.Options{Roles: table, Now: clk.Now})
	token := signIn(t, app, "developer").makeToken("erp", "write", 10, clk.Now())
	for _, c := range []struct {
		method, path, allow string
	}{
		{http.MethodDelete, "/api/v1/accounts", "GET, HEAD"},
		{http.MethodPost, "/api/v1/accounts/A-1", "GET, HEAD"},
		{http.MethodPut, "/api/v1/decisions/12", "GET, HEAD"},
		{http.MethodGet, "/api/v1/limit-requests", "POST"},
		{http.MethodPatch, "/api/v1/ledgers", "POST"},
		{http.MethodPost, "/api/v1/openapi.json", "GET, HEAD"},
		{http.MethodOptions, "/api/v1/limit-requests", "POST"},
	} {
		for _, tok := range []string{token, ""} {
			a := call(t, app, tok, c.method, c.path, "", nil)
			if a.Status != http.StatusMethodNotAllowed || a.Header.Get("Allow") != c.allow {
				t.Errorf("%s %s: %d, Allow %q; want 405, Allow %q", c.method, c.path, a.Status, a.Header.Get("Allow"), c.allow)
				continue
			}
			if p := a.problem(t); !strings.Contains(p.Detail, c.allow) {
				t.Errorf("%s %s: detail %q does not name %s", c.method, c.path, p.Detail, c.allow)
			}
		}
	}
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		if a := call(t, app, token, m, "/api/v1/nothing/here", "", nil); a.Status != http.StatusNotFound || a.Header.Get("Allow") != "" {
			t.Errorf("%s of a path the API lacks: %d, Allow %q", m, a.Status, a.Header.Get("Allow"))
		} else {
			a.problem(t)
		}
	}
}
