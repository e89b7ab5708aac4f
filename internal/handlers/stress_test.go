package handlers_test

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

func TestStress(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	acct := demoUser(t, "demo")
	p := u.Get("/portfolio/stress")
	mustStatus(t, "/portfolio/stress", p, http.StatusOK)
	noProblems(t, "/portfolio/stress", p)
	for _, id := range []string{"#chart-stress-share", "#chart-stress-z"} {
		if p.Doc.Find(id).Length() != 1 {
			t.Errorf("no %s chart", id)
		}
	}
	items := p.Doc.Find("ul.stress-folders li")
	if items.Length() != len(acct.Folders) {
		t.Fatalf("%d folders told, want %d", items.Length(), len(acct.Folders))
	}
	told := 0
	items.Each(func(i int, li *goquery.Selection) {
		text := strings.Join(strings.Fields(li.Text()), " ")
		if !strings.HasPrefix(text, acct.Folders[i].FolderName+": ") {
			t.Errorf("folder %d reads %q, want it to start with %q", i, text, acct.Folders[i].FolderName+": ")
		}
		// The demo's shares may never rise; either way the page says so.
		if strings.Contains(text, ": the share in Pay zones 1–4 rose most in 20") || strings.Contains(text, ": the share in Pay zones 1–4 never rose") {
			told++
		}
	})
	if told != len(acct.Folders) {
		t.Errorf("%d of %d folders tell their biggest rise", told, len(acct.Folders))
	}
	// Each chart has its table, a column per folder.
	if n := p.Doc.Find("details.data-table table").Length(); n != 2 {
		t.Errorf("%d data tables, want 2", n)
	}
	if head := p.Text("details.data-table table thead"); !strings.Contains(head, acct.Folders[0].FolderName) {
		t.Errorf("table head %q lacks the first folder", head)
	}
	if portfolio := u.Get("/portfolio"); portfolio.Doc.Find(`a[href="/portfolio/stress"]`).Length() == 0 {
		t.Error("the portfolio page does not link to folder stress")
	}
	// Home loaded the same histories: folder stress asks nothing more of them.
	app.Sim.Reset()
	u.Get("/")
	app.Sim.Reset()
	u.Get("/portfolio/stress")
	for _, path := range []string{"/v1/Portfolio/PayScoreHistory", "/v1/Portfolio/ZScoreHistory"} {
		if n := app.Sim.Requests()["demo"][path]; n != 0 {
			t.Errorf("folder stress asked %s %d times after home", path, n)
		}
	}
}

// An Ordinary account with requests to spare gets the page; with its
// budget nearly spent it is told what the rest costs and offered one Load
// link for everything the page needs, never spending past the hour's 10.
func TestStressWithinTheBudget(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")
	p := u.Get("/portfolio/stress")
	mustStatus(t, "/portfolio/stress", p, http.StatusOK)
	noProblems(t, "/portfolio/stress as ordinary", p)
	if n := p.Doc.Find("ul.stress-folders li").Length(); n != len(demoUser(t, "ordinary").Folders) {
		t.Errorf("%d folders told", n)
	}

	// A fresh stand-in: its hour starts with 10 requests.
	app2 := apptest.Start(t, apptest.Options{})
	low := app2.SignIn(t, "ordinary")
	low.Get("/businesses/1001")            // 5 requests
	low.Get("/businesses/1001/financials") // 3 more
	low.Get("/businesses/1001/officers")   // 1 more: 1 left
	if left := 10 - total(app2, "ordinary"); left != 1 {
		t.Fatalf("setup: %d requests left, want 1", left)
	}
	p = low.Get("/portfolio/stress")
	mustStatus(t, "/portfolio/stress on a spent budget", p, http.StatusOK)
	offer := p.Doc.Find(".problem.deferred")
	if offer.Length() != 1 {
		t.Fatalf("%d offers, want one for the whole page: %q", offer.Length(), p.Text("main"))
	}
	// 1 left of the 3 it costs: no Load link that could not work, and
	// the page's one notice says when the limit renews.
	if offer.Find("a").Length() != 0 || !strings.Contains(offer.Text(), "costs 3 requests") || p.Doc.Find("#budget-notice").Length() != 1 {
		t.Errorf("offer reads %q", strings.Join(strings.Fields(offer.Text()), " "))
	}
	if p.Doc.Find("[data-chart]").Length() != 0 {
		t.Error("charts drawn from data not loaded")
	}
	if n := total(app2, "ordinary"); n > 10 {
		t.Errorf("%d requests spent, more than the hour's 10", n)
	}
}

// A service without Portfolio/Businesses cannot say who is in which
// folder: the page says so, shows no error, and stops asking.
func TestStressWithoutMembers(t *testing.T) {
	var asked atomic.Int32
	app := apptest.Start(t, apptest.Options{StandIn: withoutMembers(&asked)})
	u := app.SignIn(t, "demo")
	for range 2 {
		p := u.Get("/portfolio/stress")
		mustStatus(t, "/portfolio/stress without members", p, http.StatusOK)
		noProblems(t, "/portfolio/stress without members", p)
		if !strings.Contains(p.Text("#stress-no-members"), "needs folder members") {
			t.Errorf("the page does not say it needs folder members: %q", p.Text("main"))
		}
		if p.Doc.Find("[data-chart], ul.stress-folders").Length() != 0 {
			t.Error("charts or folders shown without members")
		}
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("Portfolio/Businesses asked %d times, want 1 (then remembered)", n)
	}
}
