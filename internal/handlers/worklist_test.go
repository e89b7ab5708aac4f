package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// worklistAccounts are the accounts the worklist lists, in its order.
func worklistAccounts(p *apptest.Page) []string {
	var out []string
	p.Doc.Find("table.worklist tbody tr").Each(func(_ int, s *goquery.Selection) {
		out = append(out, s.AttrOr("data-account", ""))
	})
	return out
}

// TestWorklist: every account that needs something, with its reasons,
// largest expected loss first; filtered by reason and owner; owners
// assigned in bulk and one at a time, logged, a bad name kept with its
// message (422), auditors and requests without a CSRF token refused; a
// decision waiting shows for the manager who may take it, and goes once
// decided; the home page sums it up.
func TestWorklist(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer")
		importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		grantLimit(t, app, "A-1", 1000)
		dev.Get("/businesses/1001") // the team learns 1001's Risk band (2)
		p := dev.Get("/worklist")
		if p.Status != http.StatusOK {
			t.Fatalf("/worklist: %d %.300s", p.Status, p.Text("main"))
		}
		if got := worklistAccounts(p); strings.Join(got, ",") != "A-1,A-2" {
			t.Fatalf("worklist = %v, want A-1 (band 2, an expected loss) then A-2", got)
		}
		first := p.Text("table.worklist tbody tr:first-child")
		for _, want := range []string{"Over limit: balance $1,500 over the limit of $1,000", "Review due", "never reviewed", "Hold advised: Risk band 2", "unassigned"} {
			if !strings.Contains(first, want) {
				t.Errorf("A-1's line %q lacks %q", first, want)
			}
		}
		if got := worklistAccounts(dev.Get("/worklist?reason=over-limit")); strings.Join(got, ",") != "A-1" {
			t.Errorf("over limit = %v", got)
		}
		if p := dev.Get("/worklist?owner=me"); len(worklistAccounts(p)) != 0 || p.Text("#worklist-empty") == "" {
			t.Errorf("mine before any assignment: %v", worklistAccounts(p))
		}
		if !strings.Contains(dev.Get("/worklist").Text("#worklist-keys"), "j") {
			t.Errorf("the keyboard is not documented on the page")
		}

		// Bulk: both accounts to developer, back to the filter it came from.
		to := mustRedirect(t, "bulk owner", dev.post("/worklist/owner", "account", "A-1", "account", "A-2", "owner", "developer",
			"return", "/worklist?reason=review-due"))
		if u, _ := url.Parse(to); u.Path != "/worklist" || u.Query().Get("reason") != "review-due" || u.Query().Get("assigned") != "2" {
			t.Errorf("bulk owner lands on %q", to)
		}
		if p := dev.Get(to); !strings.Contains(p.Text(".flash"), "2 accounts assigned to developer") {
			t.Errorf("flash after the bulk owner: %q", p.Text(".flash"))
		}
		if got := worklistAccounts(dev.Get("/worklist?owner=me")); len(got) != 2 {
			t.Errorf("mine after the assignment = %v", got)
		}
		if rows := dev.Get("/audit?action=owner").Doc.Find("table.audit tbody tr").Length(); rows != 2 {
			t.Errorf("owner changes logged: %d rows, want 2", rows)
		}
		bad := dev.post("/worklist/owner", "account", "A-2", "owner", "not a name!", "return", "/worklist")
		if bad.Status != http.StatusUnprocessableEntity || bad.Text("#bulk-owner-error") == "" {
			t.Errorf("a bad bulk owner: %d %q", bad.Status, bad.Text("#bulk-owner-error"))
		}
		if v, _ := bad.Doc.Find("#bulk-owner").Attr("value"); v != "not a name!" {
			t.Errorf("the bad owner typed is not kept: %q", v)
		}
		if _, ok := bad.Doc.Find(`input[value="A-2"]`).Attr("checked"); !ok {
			t.Errorf("the account checked is not kept checked")
		}
		if p := dev.post("/worklist/owner", "owner", "demo", "return", "/worklist"); p.Status != http.StatusUnprocessableEntity ||
			!strings.Contains(p.Text("#bulk-owner-error"), "Check at least one account") {
			t.Errorf("no account checked: %d %q", p.Status, p.Text("#bulk-owner-error"))
		}
		if p := dev.post("/worklist/owner", "account", "NOPE", "owner", "demo"); p.Status != http.StatusUnprocessableEntity {
			t.Errorf("an account not the team's: %d", p.Status)
		}

		// One account, from its page.
		mustRedirect(t, "owner", dev.post("/accounts/A-1/owner", "owner", "demo"))
		if got := dev.Get("/accounts/A-1/review").Text("#owner"); !strings.Contains(got, "Owned by demo") {
			t.Errorf("A-1's owner section = %q", got)
		}
		one := dev.post("/accounts/A-1/owner", "owner", strings.Repeat("x", 65))
		if one.Status != http.StatusUnprocessableEntity || one.Text("#owner-error") == "" {
			t.Errorf("a bad owner: %d %q", one.Status, one.Text("#owner-error"))
		}
		if v, _ := one.Doc.Find("#owner-name").Attr("value"); v != strings.Repeat("x", 65) {
			t.Errorf("the bad owner typed is not kept: %q", v)
		}
		mustRedirect(t, "unassign", dev.post("/accounts/A-2/owner", "unassign", "1"))
		if got := worklistAccounts(dev.Get("/worklist?owner=unassigned")); strings.Join(got, ",") != "A-2" {
			t.Errorf("unassigned = %v", got)
		}
		if p := dev.post("/accounts/NOPE/owner", "owner", "demo"); p.Status != http.StatusNotFound {
			t.Errorf("owner of no such account: %d", p.Status)
		}
		if p := dev.Get("/accounts/A-1/owner"); p.Status != http.StatusSeeOther || p.Location() != "/accounts/A-1/review" {
			t.Errorf("GET the owner form: %d %q", p.Status, p.Location())
		}
		trade := signInAccounts(t, app, "trade")
		wantRefused(t, "an auditor assigning", trade.post("/accounts/A-1/owner", "owner", "trade"), "Auditors read everything")
		wantRefused(t, "an auditor assigning in bulk", trade.post("/worklist/owner", "account", "A-1", "owner", "trade"), "Auditors read everything")
		if p := trade.Get("/worklist"); p.Status != http.StatusOK || p.Doc.Find("#bulk-owner").Length() != 0 {
			t.Errorf("an auditor's worklist: %d, owner form shown %d", p.Status, p.Doc.Find("#bulk-owner").Length())
		}
		noToken := dev.PostForm("/worklist/owner", url.Values{"account": {"A-1"}, "owner": {"dev"}})
		if noToken.Status != http.StatusForbidden {
			t.Errorf("bulk owner without a CSRF token: %d, want 403", noToken.Status)
		}

		// A request above the developer's authority waits for a manager.
		req := mustRedirect(t, "request", dev.post("/businesses/1002/limit-requests", "account", "A-2", "amount", "20000", "reason", "New contract"))
		demo := signInAccounts(t, app, "demo")
		w := demo.Get("/worklist?reason=decision-waiting")
		if got := worklistAccounts(w); strings.Join(got, ",") != "A-2" || !strings.Contains(w.Text("table.worklist"), "1 request waiting for your decision") {
			t.Errorf("waiting for demo = %v, %q", got, w.Text("table.worklist"))
		}
		if got := worklistAccounts(dev.Get("/worklist?reason=decision-waiting")); len(got) != 0 {
			t.Errorf("the requester's own request waits for them: %v", got)
		}
		home := demo.Get("/")
		if s := home.Text("#worklist-summary"); !strings.Contains(s, "2 accounts of the team need something") || !strings.Contains(s, "1 yours") ||
			!strings.Contains(s, "Decision waiting for me: 1") {
			t.Errorf("home's worklist summary = %q", s)
		}
		if demo.Get("/worklist").Doc.Find(`nav[aria-label="Main"] a[href="/worklist"]`).Length() != 1 {
			t.Errorf("no worklist link in the navigation")
		}
		// Decided, it waits for no one: the worklist read just before
		// must not be served again.
		mustRedirect(t, "approve", demo.post(req+"/approve", "note", "Within policy"))
		if got := worklistAccounts(demo.Get("/worklist?reason=decision-waiting")); len(got) != 0 {
			t.Errorf("an approved request still waits for demo: %v", got)
		}
	})
}

// TestWorklistPagedAndReviewed: a long worklist is paged by 50; a review
// takes an account off it; a new statement year, as the financials tab
// receives it, puts it back with that reason.
func TestWorklistPagedAndReviewed(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer")
		importLedger(t, dev, "big.csv", ledgerOf(120, 1), "2026-09-30")
		grantERPLimit(t, app, "C000000") // its ERP limit differs no more
		p := dev.Get("/worklist?page=3")
		if got := worklistAccounts(p); len(got) != 20 || !strings.Contains(p.Text("main"), "rows 101–120 of 120") {
			t.Errorf("page 3: %d lines, %q", len(got), p.Text(".pager"))
		}
		if got := worklistAccounts(dev.Get("/worklist")); len(got) != 50 {
			t.Errorf("page 1: %d lines, want 50", len(got))
		}
		// C000000 links business 1001: reviewed, it needs nothing more
		// until the financials bring a statement year.
		mustRedirect(t, "review", dev.post("/accounts/C000000/review", "outcome", "keep", "note", "Pays on time"))
		if strings.Contains(strings.Join(worklistAccounts(dev.Get("/worklist?page=3")), ","), "C000000") ||
			dev.Get("/worklist").Doc.Find(`tr[data-account="C000000"]`).Length() != 0 {
			t.Fatalf("a reviewed account with nothing else is still listed")
		}
		if p := dev.Get("/businesses/1001/financials"); p.Status != http.StatusOK {
			t.Fatalf("financials: %d", p.Status)
		}
		years, err := app.Store.StatementYears(context.Background(), store.Analyst{Service: apptest.WorkspaceService, User: "x"})
		if err != nil || years[1001] == 0 {
			t.Fatalf("the financials tab kept no statement year: %v, %v", years, err)
		}
		all := ""
		for page := 1; page <= 3; page++ {
			all += dev.Get("/worklist?reason=review-due&page=" + strconv.Itoa(page)).Text("table.worklist")
		}
		if !strings.Contains(all, "new statement year") {
			t.Errorf("a new statement year does not bring C000000's review back")
		}
		if week := dev.Get("/reviews").Text("#week"); !strings.Contains(week, "new statement year") {
			t.Errorf("/reviews does not show the new statement year")
		}
	})
}
