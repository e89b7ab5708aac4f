package handlers_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestFormPastTheParsersFieldLimit: Go's form parser stops at 10,000
// fields; a form with more is still read for its CSRF token (wherever the
// token is in it) and answered with the form's own limit (422), not as a
// form without a token. Without a valid token it is still refused (403).
func TestFormPastTheParsersFieldLimit(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	dev := signInAccounts(t, app, "demo")
	importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	body := func(token string, tokenFirst bool) string {
		var b strings.Builder
		if tokenFirst {
			b.WriteString("_csrf=" + url.QueryEscape(token) + "&")
		}
		b.WriteString("owner=demo&return=%2Fworklist")
		for i := range 10001 {
			b.WriteString("&account=A-" + strconv.Itoa(i))
		}
		if !tokenFirst {
			b.WriteString("&_csrf=" + url.QueryEscape(token))
		}
		return b.String()
	}
	post := func(form string) *apptest.Page {
		req, err := http.NewRequest(http.MethodPost, app.URL+"/worklist/owner", strings.NewReader(form))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return dev.Do(req)
	}
	for _, first := range []bool{true, false} {
		p := post(body(dev.token, first))
		if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text("#bulk-owner-error"), "at most 200 accounts") {
			t.Errorf("10,001 accounts, token first %v: %d %q; want 422 naming at most 200 accounts", first, p.Status, p.Text("#bulk-owner-error"))
		}
		if v, _ := p.Doc.Find("#bulk-owner").Attr("value"); p.Status == http.StatusUnprocessableEntity && v != "demo" {
			t.Errorf("the owner typed is not kept: %q", v)
		}
	}
	if p := post(body("not-the-token", false)); p.Status != http.StatusForbidden {
		t.Errorf("10,001 accounts with a wrong token: %d, want 403", p.Status)
	}
	if n := len(worklistAccounts(dev.Get("/worklist?owner=me"))); n != 0 {
		t.Errorf("accounts assigned by the refused forms: %d", n)
	}
}
