package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream/simulator"
)

func TestBusinessSectionFailureLeavesTheRest(t *testing.T) {
	cases := []struct {
		name, path, failing string
		// problem is the section that must show the failure; intact are
		// selectors of what must still be there.
		problem string
		intact  []string
	}{
		{"score history", "/businesses/1001", "/v1/Business/CreditScoreHistory", "#scores",
			[]string{"#summary .summary-text", "#chart-risk-history", ".naics li"}},
		{"summary", "/businesses/1001", "/v1/Business/Summary", "#summary",
			[]string{"#scores .score-card", "#chart-risk", "#chart-risk-history"}},
		{"risk history", "/businesses/1001", "/v1/Business/RiskHistory", "#risk-history",
			[]string{"#summary .summary-text", "#chart-z"}},
		{"SIC", "/suppliers/S-1001/payments", "/v1/Business/PaymentSummary/SIC", "#sic",
			[]string{"#aging table.aging", "#chart-aging"}},
		{"monthly", "/businesses/1001/payments", "/v1/Business/PaymentSummary/Monthly", "#aging",
			[]string{"#sic table.aging", "#chart-sic-dbt"}},
		{"comments", "/businesses/1001/financials", "/v1/Business/WordFill", "#comments",
			[]string{"table.statements"}},
		{"statements", "/businesses/1001/financials", "/v1/Business/LatestAnnualStatements", "#statements",
			[]string{"#comments .comments-text"}},
		{"officers", "/businesses/1001/officers", "/v1/Business/Officers", "#officers",
			[]string{"#industry .naics-table", "h1"}},
		{"industry codes", "/businesses/1001/officers", "/v1/Business/NAICSCodes", ".biz-header",
			[]string{"table.officers"}},
	}
	app := apptest.Start(t, apptest.Options{NoCache: true})
	u := app.SignIn(t, "demo")
	// A 429 is not one section's failure: the whole budget is spent (see
	// TestBusinessRateLimitKeepsThePage).
	for _, status := range []int{http.StatusInternalServerError, http.StatusBadGateway} {
		for _, c := range cases {
			app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{c.failing}, ErrorStatus: status})
			p := u.Get(c.path)
			what := c.name + " failing with " + http.StatusText(status)
			if p.Status != http.StatusOK {
				t.Errorf("%s: status %d, want 200", what, p.Status)
				continue
			}
			box := p.Doc.Find(c.problem + " .problem")
			if box.Length() != 1 {
				t.Errorf("%s: %d problem boxes in %s", what, box.Length(), c.problem)
				continue
			}
			if wantTitle := "not answering"; !strings.Contains(box.Text(), wantTitle) {
				t.Errorf("%s: box says %q", what, box.Text())
			}
			if href, _ := box.Find("a").Last().Attr("href"); href != c.path {
				t.Errorf("%s: retry link %q, want %q", what, href, c.path)
			}
			if got := p.Doc.Find(".problem").Length(); got != 1 {
				t.Errorf("%s: %d problem boxes on the page, want only the failing section's", what, got)
			}
			for _, sel := range c.intact {
				if p.Doc.Find(sel).Length() == 0 {
					t.Errorf("%s: %s is gone", what, sel)
				}
			}
		}
	}
	app.Sim.SetFaults(simulator.Faults{})
	if p := u.Get("/businesses/1001"); p.Doc.Find(".problem").Length() != 0 {
		t.Errorf("after the faults: %q", p.Text(".problem"))
	}
}

func TestBusinessHeaderFailureIsAWholePage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{NoCache: true})
	u := app.SignIn(t, "demo")
	cases := []struct {
		inject, want int
	}{
		{http.StatusInternalServerError, http.StatusBadGateway},
		{http.StatusServiceUnavailable, http.StatusBadGateway},
	}
	for _, c := range cases {
		app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{"/v1/Business/IdentificationGroup"}, ErrorStatus: c.inject})
		for _, tab := range businessTabs {
			p := u.Get("/businesses/1001" + tab.suffix)
			if p.Status != c.want || p.Doc.Find(".problem-page").Length() != 1 {
				t.Errorf("header call %d on %q: status %d, want the %d page", c.inject, tab.label, p.Status, c.want)
			}
			if href, _ := p.Doc.Find(".problem-page a.button").Attr("href"); href != "/businesses/1001"+tab.suffix {
				t.Errorf("header call %d: retry link %q", c.inject, href)
			}
		}
	}
	app.Sim.SetFaults(simulator.Faults{})
	if p := u.Get("/"); p.Status != http.StatusOK {
		t.Errorf("after header failures the user is signed out: %d", p.Status)
	}
}

// An exhausted quota never blanks a report: the header says so, and says
// when the limit renews, while the user stays on the page, signed in.
func TestBusinessRateLimitKeepsThePage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{NoCache: true})
	u := app.SignIn(t, "demo")
	// The service refuses for want of quota where the dashboard did not
	// know the budget was spent (another client of the same account).
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorStatus: http.StatusTooManyRequests})
	app.Sim.Reset()
	p := u.Get("/businesses/1001")
	if p.Status != http.StatusOK {
		t.Fatalf("every call refused with 429: status %d, want 200", p.Status)
	}
	// The call that met the 429 says so; the others, refused here without
	// asking the service once it said the hour is spent, offer a Load for
	// when it renews.
	for _, sel := range []string{".biz-header .problem", "#scores .problem", "#summary .problem", "#risk-history .problem"} {
		told := p.Text(sel)
		if !strings.Contains(told, "limit") || !strings.Contains(told, "renews") {
			t.Errorf("%s does not tell of the limit and its renewal: %q", sel, told)
		}
	}
	if n := total(app, "demo"); n > 1 {
		t.Errorf("the service was asked %d times after it said the hour is spent, want 1", n)
	}
	app.Sim.SetFaults(simulator.Faults{})
	if u.Get("/").Status != http.StatusOK {
		t.Error("the rate limit signed the user out")
	}
}

// noIdentification is a service without IdentificationGroup: it answers
// 404 for it, as the specification allows.
func noIdentification(asked *atomic.Int32) func(http.Handler) http.Handler {
	return intercept("/v1/Business/IdentificationGroup", func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
		asked.Add(1)
		serviceAnswer(w, http.StatusNotFound, "NotFound", "no such operation")
	})
}

func TestBusinessWithoutIdentificationGroup(t *testing.T) {
	var asked atomic.Int32
	app := apptest.Start(t, apptest.Options{StandIn: noIdentification(&asked)})
	u := app.SignIn(t, "demo")
	for _, tab := range businessTabs {
		p := u.Get("/businesses/1001" + tab.suffix)
		if p.Status != http.StatusOK || p.Text("h1") != "Business 1001" || p.Doc.Find(tab.marker).Length() == 0 {
			t.Errorf("%s: status %d h1 %q", tab.label, p.Status, p.Text("h1"))
		}
	}
	if p := u.Get("/suppliers/S-1001/officers"); p.Text("h1") != "Business S-1001" {
		t.Errorf("supplier header = %q", p.Text("h1"))
	}
	// The other calls still tell an unknown business from a missing operation.
	if p := u.Get("/businesses/999999"); p.Status != http.StatusNotFound {
		t.Errorf("unknown business without IdentificationGroup: status %d, want 404", p.Status)
	}
	// Without it nobody says the business is private: the Z card must not guess.
	if z := card(u.Get("/businesses/1003"), "Z″-Score"); !strings.Contains(z.Text(), "no score reported") {
		t.Errorf("1003 Z card without identification = %q", z.Text())
	}
	// The missing operation is remembered for this user: asked once, not
	// once per page.
	if n := asked.Load(); n != 1 {
		t.Errorf("IdentificationGroup asked %d times for one user, want 1", n)
	}
}

// hostile is what a malicious or broken service might send as text.
const hostile = `Evil "quoted" <script>alert(1)</script><img src=x onerror=alert(2)> ' onmouseover='alert(3)`

func hostileBusinessData(t *testing.T) *simulator.Dataset {
	t.Helper()
	base := apptest.DemoData()
	data := *base
	data.Businesses = append([]simulator.Business(nil), base.Businesses...)
	b := data.Businesses[0] // 1001, in the demo user's supplier list
	b.Name = "Name " + hostile
	b.City = `"><svg onload=alert(4)>`
	b.Summary.Text = "Summary " + hostile
	b.FinancialComments = "Comments " + hostile
	b.NAICS = append([]simulator.NAICSCode{{Code: `<b>1</b>`, Name: "NAICS " + hostile}}, b.NAICS...)
	b.Officers = append([]simulator.Officer(nil), b.Officers...)
	b.Officers[0].FirstName = "Officer " + hostile
	b.Officers[0].Title = "</td><script>alert(5)</script>"
	b.Statements = append([]simulator.Statement(nil), b.Statements...)
	values := map[string]simulator.DataPoint{}
	for k, v := range b.Statements[0].Values {
		values[k] = v
	}
	values["Sales"] = simulator.DataPoint{Label: "Label " + hostile, Value: values["Sales"].Value}
	values[`<script>x</script>`] = simulator.DataPoint{Label: "Key " + hostile, Text: "Text " + hostile}
	b.Statements[0].Values = values
	b.PaymentsSIC = append([]simulator.PaymentRow(nil), b.PaymentsSIC...)
	b.PaymentsSIC[0].CategoryName = "</script><script>alert(6)</script>"
	data.Businesses[0] = b
	return &data
}

func TestBusinessHostileTextIsInert(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Data: hostileBusinessData(t)})
	u := app.SignIn(t, "demo")
	for _, tab := range businessTabs {
		path := "/suppliers/S-1001" + tab.suffix
		p := u.Get(path)
		if p.Status != http.StatusOK {
			t.Fatalf("GET %s: status %d", path, p.Status)
		}
		checkSecurityHeaders(t, path, p, true)
		if !strings.Contains(p.Text("h1"), hostile) {
			t.Errorf("GET %s: the hostile name is not shown as text: %q", path, p.Text("h1"))
		}
		if n := p.Doc.Find("img, svg, b, main script:not([type='application/json'])").Length(); n != 0 {
			t.Errorf("GET %s: %d elements made from service text", path, n)
		}
		checkNoEventAttributes(t, path, p)
		p.Doc.Find(`script[type="application/json"]`).Each(func(_ int, s *goquery.Selection) {
			var v any
			if err := json.Unmarshal([]byte(s.Text()), &v); err != nil {
				t.Errorf("GET %s: chart options broken by service text: %v", path, err)
			}
		})
	}
	checks := map[string]string{
		"":            "#summary",
		"/financials": "#comments",
		"/officers":   "table.officers",
	}
	for tab, sel := range checks {
		if got := u.Get("/suppliers/S-1001" + tab).Text(sel); !strings.Contains(got, hostile) {
			t.Errorf("%s %s: hostile text not shown literally: %q", tab, sel, got)
		}
	}
	fin := u.Get("/suppliers/S-1001/financials")
	if !strings.Contains(fin.Text("table.statements"), "Label "+hostile) || !strings.Contains(fin.Text("table.statements"), "Text "+hostile) {
		t.Errorf("statement labels and texts not shown literally")
	}
	if pay := u.Get("/suppliers/S-1001/payments"); !strings.Contains(pay.Body, `\u003c/script\u003e\u003cscript\u003ealert(6)`) {
		t.Errorf("the hostile SIC category is not escaped inside the chart options")
	}
}

// checkNoEventAttributes fails on any on* attribute: none of our markup
// has one, so any that appears came from service text.
func checkNoEventAttributes(t *testing.T, what string, p *apptest.Page) {
	t.Helper()
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				if strings.HasPrefix(strings.ToLower(a.Key), "on") {
					t.Errorf("%s: <%s %s=%q> carries an event handler", what, n.Data, a.Key, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range p.Doc.Nodes {
		walk(n)
	}
}

func TestBusinessExpiredSessionGoesToSignIn(t *testing.T) {
	var skew atomic.Int64 // how far the stand-in's clock runs ahead
	app := apptest.Start(t, apptest.Options{NoCache: true, Sim: simulator.Options{
		SessionTTL: time.Hour,
		Now:        func() time.Time { return time.Now().Add(time.Duration(skew.Load())) },
	}})
	for _, tab := range businessTabs {
		skew.Store(0)
		u := app.SignIn(t, "demo")
		path := "/suppliers/S-1001" + tab.suffix
		if p := u.Get(path); p.Status != http.StatusOK {
			t.Fatalf("GET %s: status %d", path, p.Status)
		}
		skew.Store(int64(2 * time.Hour))
		p := u.Get(path)
		want := "/login?next=" + url.QueryEscape(path) + "&reason=expired"
		if p.Status != http.StatusSeeOther || p.Location() != want {
			t.Errorf("GET %s with an expired service session: %d to %q, want 303 to %q", path, p.Status, p.Location(), want)
		}
		if p := u.Get(path); p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location(), "/login") {
			t.Errorf("GET %s after expiry: the dashboard session was not cleared (%d %q)", path, p.Status, p.Location())
		}
	}
}
