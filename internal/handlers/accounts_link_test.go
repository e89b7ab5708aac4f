package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestLinkAccountByHand (issue 43.3): an account a names-only file left
// not linked is linked by hand from /accounts?unlinked=1: a malformed id
// and an id the service does not know come back with why (422, typed
// text kept); the name search lists the service's businesses to pick;
// auditors and posts without a CSRF token are refused; the link is shown
// on /accounts and audited with who, account, business and its name.
func TestLinkAccountByHand(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer")
		importLedger(t, dev, "AR Aging Summary.csv", []byte(qboSummary), "2026-09-30")
		list := dev.Get("/accounts?unlinked=1")
		path := "/accounts/Cool%20Cars/link"
		if list.Doc.Find(`a[href="`+path+`"]`).Length() != 1 {
			t.Fatalf("/accounts?unlinked=1 offers no link by hand for Cool Cars: %.600s", list.Text("main"))
		}
		p := dev.Get(path)
		if p.Status != http.StatusOK || p.Doc.Find("#business").Length() != 1 {
			t.Fatalf("link page: %d %.400s", p.Status, p.Text("main"))
		}
		if v, _ := p.Doc.Find("#q").Attr("value"); v != "Cool Cars" || p.Doc.Find("ul.results").Length() != 0 {
			t.Errorf("the name search box = %q, results shown %d; want the account's name, nothing searched", v, p.Doc.Find("ul.results").Length())
		}

		bad := dev.post(path, "business", "10O3")
		if bad.Status != http.StatusUnprocessableEntity || !strings.Contains(bad.Text("#business-error"), "digits only") {
			t.Errorf("a malformed id: %d %q", bad.Status, bad.Text("#business-error"))
		}
		if v, _ := bad.Doc.Find("#business").Attr("value"); v != "10O3" {
			t.Errorf("the malformed id typed is not kept: %q", v)
		}
		unknown := dev.post(path, "business", "123456")
		if unknown.Status != http.StatusUnprocessableEntity || !strings.Contains(unknown.Text("#business-error"), "No business 123456") {
			t.Errorf("an unknown id: %d %q", unknown.Status, unknown.Text("#business-error"))
		}
		if v, _ := unknown.Doc.Find("#business").Attr("value"); v != "123456" {
			t.Errorf("the unknown id typed is not kept: %q", v)
		}

		// The service's name search offers its businesses to pick from.
		name := strings.TrimSpace(dev.Get("/businesses/1002").Text("h1"))
		if name == "" {
			t.Fatal("business 1002's report names no business")
		}
		found := dev.Get(path + "?q=" + url.QueryEscape(name))
		pick := found.Doc.Find(`ul.results form input[name="business"][value="1002"]`)
		if found.Status != http.StatusOK || pick.Length() != 1 {
			t.Fatalf("searching %q: %d, 1002 offered %d; %.600s", name, found.Status, pick.Length(), found.Text("main"))
		}

		trade := signInAccounts(t, app, "trade")
		wantRefused(t, "an auditor linking", trade.post(path, "business", "1002"), "Auditors read everything")
		if p := trade.Get(path); p.Status != http.StatusOK || p.Doc.Find("#business").Length() != 0 {
			t.Errorf("an auditor's link page: %d, form shown %d", p.Status, p.Doc.Find("#business").Length())
		}
		if noToken := dev.PostForm(path, url.Values{"business": {"1002"}}); noToken.Status != http.StatusForbidden {
			t.Errorf("link without a CSRF token: %d, want 403", noToken.Status)
		}
		if n := dev.Get("/audit?action=account-link").Doc.Find("table.audit tbody tr").Length(); n != 0 {
			t.Fatalf("%d links logged before any was made", n)
		}

		to := mustRedirect(t, "link", dev.post(path, "business", " 1002 "))
		after := dev.Get(to)
		if !strings.Contains(after.Text(".flash"), "Account Cool Cars linked by hand to business 1002") {
			t.Errorf("flash after the link: %q", after.Text(".flash"))
		}
		if after.Doc.Find(`a[href="/businesses/1002"]`).Length() == 0 || after.Doc.Find(`a[href="`+path+`"]`).Length() != 0 {
			t.Errorf("/accounts does not show Cool Cars linked to 1002")
		}
		rows := dev.Get("/audit?action=account-link").Doc.Find("table.audit tbody tr")
		if rows.Length() != 1 {
			t.Fatalf("links logged: %d rows, want 1", rows.Length())
		}
		for _, want := range []string{"developer", "Cool Cars", "1002", "linked by hand to " + name} {
			if !strings.Contains(rows.Text(), want) {
				t.Errorf("the audit entry %q lacks %q", rows.Text(), want)
			}
		}
		if again := dev.post(path, "business", "1003"); again.Status != http.StatusConflict || !strings.Contains(again.Text("#linked"), "business 1002") {
			t.Errorf("linking a linked account: %d %q", again.Status, again.Text("#linked"))
		}

		// A manager links too; a picked result posts its id the same way.
		demo := signInAccounts(t, app, "demo")
		mustRedirect(t, "manager's link", demo.post("/accounts/Kookies%20by%20Kathy/link", "business", "1002"))
		if p := dev.post("/accounts/NOPE/link", "business", "1002"); p.Status != http.StatusNotFound {
			t.Errorf("link of no such account: %d", p.Status)
		}
	})
}
