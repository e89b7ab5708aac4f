package handlers_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
)

// peerRows maps each row of the peers table by its ratio label to its cells.
func peerRows(p *apptest.Page) map[string][]string {
	rows := map[string][]string{}
	p.Doc.Find("#peers table.peers tbody tr").Each(func(_ int, tr *goquery.Selection) {
		var cells []string
		tr.Find("td").Each(func(_ int, td *goquery.Selection) { cells = append(cells, strings.TrimSpace(td.Text())) })
		rows[strings.TrimSpace(tr.Find("th").Text())] = cells
	})
	return rows
}

func TestPeersFullAccessMatchesTheService(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	p := u.Get("/businesses/1001/financials")
	if p.Status != http.StatusOK {
		t.Fatalf("GET /businesses/1001/financials: status = %d, want 200", p.Status)
	}
	pa, err := app.Client.As(u.SessionKey()).PeerAnalysis(context.Background(), upstream.ByID(1001), upstream.PeerQuery{})
	if err != nil || len(pa.Ratios) == 0 {
		t.Fatalf("PeerAnalysis(1001) = %+v, %v", pa, err)
	}
	rows := peerRows(p)
	if len(rows) != len(pa.Ratios) {
		t.Fatalf("%d peer rows, want %d (one per ratio): %q", len(rows), len(pa.Ratios), p.Text("#peers"))
	}
	ranked := 0
	for _, r := range pa.Ratios {
		want, _ := views.PeerView(upstream.PeerAnalysis{PeerCount: pa.PeerCount, Ratios: []upstream.PeerRatio{r}})
		label := want.Rows[0].Label
		got, ok := rows[label]
		if !ok || len(got) != 6 {
			t.Errorf("no row %q: %v", label, got)
			continue
		}
		w := want.Rows[0]
		if got[0] != w.Value || got[1] != w.Min || got[2] != w.Median || got[3] != w.Max || got[4] != w.Rank || got[5] != w.Direction {
			t.Errorf("%s row = %q, want %q %q %q %q %q %q", label, got, w.Value, w.Min, w.Median, w.Max, w.Rank, w.Direction)
		}
		if r.Rank.OK {
			ranked++
			if !strings.HasSuffix(got[4], " of "+strconv.Itoa(r.Count)) {
				t.Errorf("%s rank %q, want … of %d", label, got[4], r.Count)
			}
		}
	}
	if ranked == 0 {
		t.Error("no ratio is ranked")
	}
	if _, ok := rows["Debt / equity"]; ok && rows["Debt / equity"][5] != "lower is better" {
		t.Errorf("debt / equity reads %q, want lower is better", rows["Debt / equity"][5])
	}
	if !strings.Contains(p.Text("#peers .peer-summary"), strconv.Itoa(pa.PeerCount)+" businesses compared") {
		t.Errorf("peer summary %q, want %d businesses", p.Text("#peers .peer-summary"), pa.PeerCount)
	}
	opt := chartOptions(t, p, "chart-peers")
	if series, _ := opt["series"].([]any); len(series) != 3 {
		t.Errorf("peer chart has %d series, want range, median and this business", len(series))
	}
	if p.Doc.Find("#peers .notice").Length() != 0 {
		t.Errorf("a Full Access account is told ratios are missing: %q", p.Text("#peers .notice"))
	}
	// The defaults are shown in the form.
	if v, _ := p.Doc.Find("#quarter option[selected]").Attr("value"); v != "4" {
		t.Errorf("default quarter %q, want 4", v)
	}
	if p.Doc.Find("#primary[checked], #samerisk[checked]").Length() != 0 {
		t.Error("filters are on by default")
	}
}

func TestPeersFiltersReachTheService(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	q := upstream.PeerQuery{SICPrimary: true, RiskLevel: upstream.RiskLevelSame, Quarter: 2}
	pa, err := app.Client.As(u.SessionKey()).PeerAnalysis(context.Background(), upstream.ByID(1001), q)
	if err != nil {
		t.Fatal(err)
	}
	p := u.Get("/businesses/1001/financials?quarter=2&primary=on&samerisk=on")
	if p.Status != http.StatusOK {
		t.Fatalf("status = %d, want 200", p.Status)
	}
	// Both filters leave 1001 alone in its group in the demo data: no
	// ranking of one.
	if pa.PeerCount != 1 || !strings.Contains(p.Text("#peers .empty"), "No other business matches these peer filters") {
		t.Errorf("filtered to %d: peers section %q, want 1 and a word that no other business matches", pa.PeerCount, p.Text("#peers"))
	}
	q = upstream.PeerQuery{SICPrimary: true, Quarter: 2}
	if pa, err = app.Client.As(u.SessionKey()).PeerAnalysis(context.Background(), upstream.ByID(1001), q); err != nil {
		t.Fatal(err)
	}
	one := u.Get("/businesses/1001/financials?quarter=2&primary=on")
	if pa.PeerCount < 2 || !strings.Contains(one.Text("#peers .peer-summary"), strconv.Itoa(pa.PeerCount)+" businesses compared") {
		t.Errorf("filtered summary %q, want %d peers", one.Text("#peers .peer-summary"), pa.PeerCount)
	}
	if p.Doc.Find("#primary[checked]").Length() != 1 || p.Doc.Find("#samerisk[checked]").Length() != 1 {
		t.Error("the checked filters are not shown back")
	}
	if v, _ := p.Doc.Find("#quarter option[selected]").Attr("value"); v != "2" {
		t.Errorf("quarter shown back as %q, want 2", v)
	}
	// The statements form keeps the peer choices, and the peer form the statements'.
	_, fields, ok := p.Form("form[aria-label='Statement options']")
	if !ok || fields.Get("quarter") != "2" || fields.Get("primary") != "on" || fields.Get("samerisk") != "on" {
		t.Errorf("statement form fields %v, want the peer choices carried along", fields)
	}
	s := u.Get("/businesses/1001/financials?count=2")
	if _, fields, _ := s.Form("form[aria-label='Peer options']"); fields.Get("count") != "2" {
		t.Errorf("peer form fields %v, want count=2 carried along", fields)
	}
}

func TestPeersAPIOnlySeesFewerRatios(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	full := peerRows(app.SignIn(t, "demo").Get("/businesses/1001/financials"))
	dev := app.SignIn(t, "developer")
	p := dev.Get("/businesses/1001/financials")
	if p.Status != http.StatusOK {
		t.Fatalf("status = %d, want 200", p.Status)
	}
	pa, err := app.Client.As(dev.SessionKey()).PeerAnalysis(context.Background(), upstream.ByID(1001), upstream.PeerQuery{})
	if err != nil {
		t.Fatal(err)
	}
	rows := peerRows(p)
	if len(rows) == 0 || len(rows) >= len(full) || len(rows) != len(pa.Ratios) {
		t.Errorf("API-Only: %d rows, want the service's %d, fewer than Full Access's %d", len(rows), len(pa.Ratios), len(full))
	}
	notice := p.Text("#peers .notice")
	if !strings.Contains(notice, "API-Only") || !strings.Contains(notice, "Gross margin") {
		t.Errorf("no reason for the missing ratios: %q", notice)
	}
}

func TestPeersEmptyWithoutStatements(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	p := u.Get("/businesses/1007/financials")
	if p.Status != http.StatusOK {
		t.Fatalf("status = %d, want 200", p.Status)
	}
	if got := p.Text("#peers .empty"); !strings.Contains(got, "No statements on file, so no peers") {
		t.Errorf("1007 peers: %q, want the empty state", p.Text("#peers"))
	}
	if p.Doc.Find("#peers table, #peers [data-chart], #peers .problem").Length() != 0 {
		t.Error("1007 peers shows a table, chart or problem")
	}
}

func TestPeersBadFiltersKeepDefaults(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	want := peerRows(u.Get("/businesses/1001/financials"))
	for _, q := range []string{"pyear=abc", "quarter=9", "pyear=99", "quarter=0", "primary=maybe", "samerisk=%3Cb%3E"} {
		p := u.Get("/businesses/1001/financials?" + q)
		if p.Status != http.StatusBadRequest || p.Text("#peers .form-error") == "" {
			t.Errorf("financials ?%s: status = %d, message %q; want 400 with a message", q, p.Status, p.Text("#peers .form-error"))
			continue
		}
		got := peerRows(p)
		if len(got) != len(want) || got["Current ratio"][4] != want["Current ratio"][4] {
			t.Errorf("?%s: peer rows %v, want the defaults' %v", q, got, want)
		}
		if v, _ := p.Doc.Find("#quarter option[selected]").Attr("value"); v != "4" {
			t.Errorf("?%s: quarter shown as %q, want the default 4", q, v)
		}
		if p.Doc.Find("table.statements thead th.num").Length() == 0 {
			t.Errorf("?%s: the statements are not shown", q)
		}
	}
	if msg := u.Get("/businesses/1001/financials?quarter=9").Text("#peers .form-error"); !strings.Contains(msg, "Quarter must be 1, 2, 3 or 4") {
		t.Errorf("quarter=9 message %q", msg)
	}
}

func TestPeersOfferedUnderASmallBudget(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")
	u.Get("/businesses/1001")          // 5 requests
	u.Get("/businesses/1002/payments") // 4 more: 1 left
	p := u.Get("/businesses/1001/financials")
	if p.Status != http.StatusOK {
		t.Fatalf("status = %d, want 200", p.Status)
	}
	if p.Doc.Find("#statements .problem").Length() != 0 || p.Doc.Find("table.statements").Length() == 0 {
		t.Errorf("the statements did not take the last request: %q", p.Text("#statements"))
	}
	// The last request went to the statements: the peers wait for the
	// limit, said once at the top, with no Load link that could not work.
	offer := p.Doc.Find("#peers .problem.deferred")
	if offer.Length() != 1 || offer.Find("a").Length() != 0 || p.Doc.Find("#budget-notice").Length() != 1 {
		t.Fatalf("peers section %q, want it waiting for the limit without a Load link", p.Text("#peers"))
	}
	if n := total(app, "ordinary"); n != 10 {
		t.Errorf("%d requests spent, want 10", n)
	}
}

// noPeers is a service without a peer analysis for any business.
var noPeers = intercept("/v1/Business/PeerAnalysis", func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
	serviceAnswer(w, http.StatusNotFound, upstream.CodeBusinessNotFound, "no peer analysis")
})

// A service without a peer analysis costs the Peers section, said there,
// not the statements and comments of the whole tab.
func TestPeersNotFoundStaysInItsSection(t *testing.T) {
	app := apptest.Start(t, apptest.Options{StandIn: noPeers})
	u := app.SignIn(t, "demo")
	p := u.Get("/businesses/1001/financials")
	if p.Status != http.StatusOK {
		t.Fatalf("GET /businesses/1001/financials with no peer analysis: status %d, want 200", p.Status)
	}
	if !strings.Contains(p.Text("#peers"), "no peer analysis for this business and period") {
		t.Errorf("peers section %q, want it to say there is no peer analysis", p.Text("#peers"))
	}
	if p.Doc.Find("#statements table").Length() == 0 {
		t.Errorf("the statements are gone: %q", p.Text("#statements"))
	}
}

// A peer year still to come is refused with a word, not passed to the
// service to be quietly clamped under the future year's label.
func TestPeersFutureYear(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	p := app.SignIn(t, "demo").Get("/businesses/1001/financials?pyear=2099")
	if p.Status != http.StatusBadRequest || !strings.Contains(p.Text("#peers"), "a year still to come") || strings.Contains(p.Text("#peers .peer-summary"), "2099") {
		t.Errorf("pyear=2099: status %d, peers %q; want 400 with a word and the latest year shown", p.Status, p.Text("#peers .peer-summary"))
	}
}
