package simulator

import (
	"bytes"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"
)

// peerData is Data of PeerAnalysis as a client reads it.
type peerData struct {
	PeerYear, PeerQuarter int
	SIC, IndustryName     string
	PeerCount             int
	Ratios                []struct {
		Ratio                   string
		Value, Max, Min, Median *float64
		Count                   int
		Rank                    *int
	}
}

func (h *apiHarness) peers(key string, q url.Values) peerData {
	h.t.Helper()
	var d peerData
	wantData(h.t, "PeerAnalysis?"+q.Encode(), h.get(key, "/v1/Business/PeerAnalysis", q), &d)
	return d
}

// expectedRatios computes every ratio from one year's statement values as
// the contract words it, independently of the server's table.
func expectedRatios(v map[string]DataPoint) map[string]float64 {
	get := func(k string) (float64, bool) {
		if p, ok := v[k]; ok && p.Value != nil {
			return *p.Value, true
		}
		return 0, false
	}
	out := map[string]float64{}
	div := func(name, num, den string) {
		n, ok1 := get(num)
		d, ok2 := get(den)
		if ok1 && ok2 && d > 0 {
			out[name] = math.Round(n/d*1e4) / 1e4
		}
	}
	div("CurrentRatio", "CurrentAssets", "CurrentLiabilities")
	div("CashRatio", "CashAndEquivalents", "CurrentLiabilities")
	div("WorkingCapitalToAssets", "WorkingCapital", "TotalAssets")
	div("LiabilitiesToAssets", "TotalLiabilities", "TotalAssets")
	div("DebtToEquity", "TotalLiabilities", "ShareholdersEquity")
	div("GrossMargin", "GrossProfit", "Sales")
	div("EBITMargin", "EBIT", "Sales")
	div("NetMargin", "NetIncome", "Sales")
	div("ReturnOnAssets", "NetIncome", "TotalAssets")
	div("ReturnOnEquity", "NetIncome", "ShareholdersEquity")
	div("AssetTurnover", "Sales", "TotalAssets")
	div("RetainedEarningsToAssets", "RetainedEarnings", "TotalAssets")
	return out
}

// The ratios agree with the statements the Financials tab shows, and the
// minimum, median, maximum and rank agree with each other.
func TestPeerAnalysisAgreesWithStatements(t *testing.T) {
	h := demoHarness(t)
	key := h.login("demo")
	for _, id := range []string{"1001", "1002", "1004", "1006", "1010", "1200"} {
		d := h.peers(key, url.Values{"id": {id}})
		var stmts []struct {
			Values map[string]DataPoint `json:"values"`
		}
		wantData(t, "statements "+id, h.get(key, "/v1/Business/LatestAnnualStatements",
			url.Values{"id": {id}, "count": {"1"}}), &stmts)
		if len(stmts) == 0 {
			if d.PeerCount != 0 || len(d.Ratios) != 0 {
				t.Errorf("%s has no statements but %d peers, %d ratios", id, d.PeerCount, len(d.Ratios))
			}
			continue
		}
		newest := int(*stmts[0].Values["FiscalYear"].Value)
		if d.PeerYear != newest || d.PeerQuarter != 4 || len(d.SIC) != 4 || d.IndustryName == "" || d.PeerCount < 1 {
			t.Errorf("%s: year %d quarter %d SIC %q %q, %d peers; want %d, 4, a SIC code and its name",
				id, d.PeerYear, d.PeerQuarter, d.SIC, d.IndustryName, d.PeerCount, newest)
		}
		want := expectedRatios(stmts[0].Values)
		if len(d.Ratios) != 12 {
			t.Errorf("%s: %d ratios, want 12", id, len(d.Ratios))
		}
		for _, r := range d.Ratios {
			w, ok := want[r.Ratio]
			if !ok {
				if r.Value != nil || r.Rank != nil {
					t.Errorf("%s %s: value %v without inputs", id, r.Ratio, *r.Value)
				}
				continue
			}
			if r.Value == nil || *r.Value != w {
				t.Errorf("%s %s = %v, want %v from the statements", id, r.Ratio, r.Value, w)
				continue
			}
			lo, med, hi, rank := *r.Min, *r.Median, *r.Max, *r.Rank
			if lo > w || w > hi || lo > med || med > hi || r.Count < 1 || r.Count > d.PeerCount || rank < 1 || rank > r.Count {
				t.Errorf("%s %s: value %v min %v median %v max %v count %d of %d, rank %d", id, r.Ratio, w, lo, med, hi, r.Count, d.PeerCount, rank)
			}
			best := hi
			if r.Ratio == "LiabilitiesToAssets" || r.Ratio == "DebtToEquity" {
				best = lo
			}
			if (rank == 1) != (w == best) {
				t.Errorf("%s %s: rank %d for %v, the best being %v", id, r.Ratio, rank, w, best)
			}
		}
	}
}

// Peers are picked by industry: the default counts every business with a
// statement for the year and the SIC code among its codes, SICPrimary=Y
// those whose main code it is.
func TestPeerAnalysisPicksPeersByIndustry(t *testing.T) {
	h := demoHarness(t)
	key := h.login("demo")
	d := h.peers(key, url.Values{"id": {"1002"}})
	primary := h.peers(key, url.Values{"id": {"1002"}, "SICPrimary": {"Y"}})
	var any, main int
	for i := range h.srv.ds.Businesses {
		b := &h.srv.ds.Businesses[i]
		has := slices.ContainsFunc(b.Statements, func(s Statement) bool { return s.FiscalYear == d.PeerYear })
		if !has {
			continue
		}
		for k, n := range b.NAICS {
			if sicByNAICS[n.Code].code == d.SIC {
				any++
				if k == 0 {
					main++
				}
				break
			}
		}
	}
	if d.PeerCount != any || primary.PeerCount != main || main < 2 {
		t.Errorf("1002 (SIC %s): %d peers, %d with it as main code; want %d and %d (at least 2)",
			d.SIC, d.PeerCount, primary.PeerCount, any, main)
	}
	other := h.peers(key, url.Values{"id": {"1002"}, "SICCode": {"5411"}})
	if other.SIC != "5411" || other.IndustryName != "Grocery Stores" || other.PeerCount < 2 {
		t.Errorf("SICCode=5411: %+v", other)
	}
	a := h.get(key, "/v1/Business/PeerAnalysis", url.Values{"id": {"1002"}})
	b := h.get(key, "/v1/Business/PeerAnalysis", url.Values{"id": {"1002"}})
	if !bytes.Equal(a.body, b.body) {
		t.Error("two identical requests gave different answers")
	}
}

func TestPeerAnalysisFiltersNarrow(t *testing.T) {
	h := demoHarness(t)
	key := h.login("demo")
	id := url.Values{"id": {"1002"}}
	all := h.peers(key, id).PeerCount
	with := func(k, v string) int {
		q := url.Values{"id": {"1002"}, k: {v}}
		return h.peers(key, q).PeerCount
	}
	risk, _, _, _ := latestScores(h.srv.byID[1002].Scores)
	if same, exact := with("RiskLevelFilter", "FS"), with("RiskLevelFilter", "F"+strconv.Itoa(*risk)); same != exact || same > all || same < 1 {
		t.Errorf("FS: %d peers, F%d: %d, unfiltered %d", same, *risk, exact, all)
	}
	if n := with("TargetCountry", "ZZ"); n != 1 {
		t.Errorf("TargetCountry=ZZ: %d peers, want the business alone", n)
	}
	// 1002's industry has a Canadian business; the business counts in both.
	if us, ca := with("TargetCountry", "us"), with("TargetCountry", "CA"); us+ca != all+1 || ca < 2 {
		t.Errorf("TargetCountry US: %d peers, CA: %d; want %d in all, Canada included", us, ca, all+1)
	}
	for _, f := range []struct{ k, v string }{
		{"FolderId", "103"}, {"RiskLevelFilter", "H1"}, {"RiskLevelFilter", "FL"}, {"ZScoreFilter", "S"},
		{"ZScoreFilter", "H"}, {"PayScoreFilter", "L"}, {"DBTFilter", "S"}, {"DBTFilter", "P"}, {"DBTFilter", "3"},
	} {
		if n := with(f.k, f.v); n < 1 || n > all {
			t.Errorf("%s=%s: %d peers, want 1-%d", f.k, f.v, n, all)
		}
	}
}

func TestPeerAnalysisAccessAndEdges(t *testing.T) {
	h := demoHarness(t)
	full := h.peers(h.login("demo"), url.Values{"id": {"1001"}})
	limited := h.peers(h.login("developer"), url.Values{"id": {"1001"}})
	var names []string
	for _, r := range limited.Ratios {
		names = append(names, r.Ratio)
		i := slices.IndexFunc(full.Ratios, func(f struct {
			Ratio                   string
			Value, Max, Min, Median *float64
			Count                   int
			Rank                    *int
		}) bool {
			return f.Ratio == r.Ratio
		})
		if i < 0 || *full.Ratios[i].Value != *r.Value || *full.Ratios[i].Rank != *r.Rank {
			t.Errorf("API-Only %s differs from Full Access", r.Ratio)
		}
	}
	if !slices.Equal(names, []string{"NetMargin", "ReturnOnAssets", "AssetTurnover"}) {
		t.Errorf("API-Only ratios %v, want those of Sales, NetIncome and TotalAssets", names)
	}

	key := h.login("demo")
	r := h.get(key, "/v1/Business/PeerAnalysis", url.Values{"id": {"1007"}})
	if !bytes.Contains(r.body, []byte(`"PeerCount":0,"Ratios":[]`)) {
		t.Errorf("1007 without statements: %s", r.body)
	}
	old := h.peers(key, url.Values{"id": {"1001"}, "Year": {"1990"}})
	if old.PeerYear != 1990 || old.PeerCount != 0 || len(old.Ratios) != 12 || old.Ratios[0].Value != nil || old.Ratios[0].Min != nil {
		t.Errorf("a year without statements: %+v", old)
	}
	prev := h.peers(key, url.Values{"id": {"1001"}, "Year": {strconv.Itoa(full.PeerYear - 1)}, "Quarter": {"4"}})
	var stmts []struct {
		Values map[string]DataPoint `json:"values"`
	}
	wantData(t, "statements", h.get(key, "/v1/Business/LatestAnnualStatements",
		url.Values{"id": {"1001"}, "StandardYear": {strconv.Itoa(full.PeerYear - 1)}}), &stmts)
	if want := expectedRatios(stmts[0].Values)["CurrentRatio"]; *prev.Ratios[0].Value != want {
		t.Errorf("the year before: current ratio %v, want %v", *prev.Ratios[0].Value, want)
	}
}

func TestPeerAnalysisErrors(t *testing.T) {
	h := demoHarness(t)
	key := h.login("demo")
	for _, tt := range []struct {
		k, v   string
		status int
		code   string
	}{
		{"Year", "abc", 400, CodeInvalidParameter},
		{"Quarter", "5", 400, CodeInvalidParameter},
		{"SICCode", "12", 400, CodeInvalidParameter},
		{"SICPrimary", "X", 400, CodeInvalidParameter},
		{"TargetCountry", "USA", 400, CodeInvalidParameter},
		{"RiskLevelFilter", "F11", 400, CodeInvalidParameter},
		{"RiskLevelFilter", "H6", 400, CodeInvalidParameter},
		{"RiskLevelFilter", "F01", 400, CodeInvalidParameter},
		{"ZScoreFilter", "Q", 400, CodeInvalidParameter},
		{"PayScoreFilter", "HH", 400, CodeInvalidParameter},
		{"DBTFilter", "0", 400, CodeInvalidParameter},
		{"FolderId", "987654", 404, CodeFolderNotFound},
		{"id", "999999", 404, CodeBusinessNotFound},
	} {
		q := url.Values{"id": {"1001"}}
		q.Set(tt.k, tt.v)
		wantError(t, tt.k+"="+tt.v, h.get(key, "/v1/Business/PeerAnalysis", q), tt.status, tt.code)
	}
	wantError(t, "no business", h.get(key, "/v1/Business/PeerAnalysis", nil), 400, CodeMissingIdentifier)
	wantError(t, "POST", h.do(http.MethodPost, "/v1/Business/PeerAnalysis", key, nil), 405, CodeMethodNotAllowed)
}

func TestPeerFilterCodes(t *testing.T) {
	p := func(n int) *int { return &n }
	tests := []struct {
		parse     func(string) (scoreMatch, bool)
		code      string
		own, peer *int
		want      bool
	}{
		{parseRiskFilter, "NS", nil, nil, true},
		{parseRiskFilter, "FS", p(7), p(7), true},
		{parseRiskFilter, "FS", p(7), p(6), false},
		{parseRiskFilter, "fh", nil, p(4), true},
		{parseRiskFilter, "FH", nil, p(5), false},
		{parseRiskFilter, "FM", nil, p(7), true},
		{parseRiskFilter, "FL", nil, p(8), true},
		{parseRiskFilter, "F10", nil, p(10), true},
		{parseRiskFilter, "F3", nil, p(4), false},
		{parseRiskFilter, "H2", p(5), p(7), true},
		{parseRiskFilter, "H2", p(5), p(8), false},
		{parseRiskFilter, "H2", nil, p(5), false},
		{parseRiskFilter, "FH", nil, nil, false},
		{func(s string) (scoreMatch, bool) { return parseBandFilter(s, zBand) }, "H", nil, p(261), true},
		{func(s string) (scoreMatch, bool) { return parseBandFilter(s, zBand) }, "M", nil, p(260), true},
		{func(s string) (scoreMatch, bool) { return parseBandFilter(s, zBand) }, "L", nil, p(110), false},
		{func(s string) (scoreMatch, bool) { return parseBandFilter(s, zBand) }, "S", p(300), p(500), true},
		{func(s string) (scoreMatch, bool) { return parseBandFilter(s, payBand) }, "S", p(4), p(5), false},
		{func(s string) (scoreMatch, bool) { return parseBandFilter(s, payBand) }, "H", nil, p(8), true},
		{parseDBTFilter, "P", nil, p(5), true},
		{parseDBTFilter, "W", nil, p(5), false},
		{parseDBTFilter, "D", nil, p(16), true},
		{parseDBTFilter, "1", nil, p(0), true},
		{parseDBTFilter, "9", nil, p(121), true},
		{parseDBTFilter, "5", nil, p(30), true},
		{parseDBTFilter, "S", p(31), p(60), true},
		{parseDBTFilter, "S", p(30), p(31), false},
	}
	for _, tt := range tests {
		m, ok := tt.parse(tt.code)
		if !ok {
			t.Errorf("%q refused", tt.code)
			continue
		}
		if got := m(tt.own, tt.peer); got != tt.want {
			t.Errorf("%q(own %v, peer %v) = %v, want %v", tt.code, deref(tt.own), deref(tt.peer), got, tt.want)
		}
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// Every industry the generator assigns has its SIC code.
func TestSICForEveryIndustry(t *testing.T) {
	for _, ind := range genIndustries {
		s, ok := sicByNAICS[ind.code]
		if !ok || len(s.code) != 4 || s.title == "" || sicTitle(s.code) != s.title {
			t.Errorf("NAICS %s: SIC %+v", ind.code, s)
		}
	}
}

// A year still running (the as-of month is October 2026; fiscal years
// ending in March or June 2026 are filed, December's are not) is compared
// with what the peers have filed by then: each one's latest statement of
// the twelve months up to three months before the as-of month, whatever
// month its fiscal year ends in.
func TestPeerAnalysisYearStillRunning(t *testing.T) {
	h := demoNowHarness(t)
	key := h.login("demo")
	filed := monthOfTime(h.srv.asOf) - genFilingMonths
	checked := 0
	for i := range h.srv.ds.Businesses {
		b := &h.srv.ds.Businesses[i]
		if len(b.Statements) == 0 || periodEnd(&b.Statements[0]).year() != h.srv.asOf.Year() || checked == 3 {
			continue
		}
		d := h.peers(key, url.Values{"id": {fmt.Sprint(b.ID)}})
		want, lastYear := 1, 0
		for k := range h.srv.ds.Businesses {
			p := &h.srv.ds.Businesses[k]
			if p.ID == b.ID || len(p.Statements) == 0 || !slices.Contains(sicCodes(p), d.SIC) {
				continue
			}
			if m := periodEnd(&p.Statements[0]); m <= filed && m > filed-12 {
				want++
				if m.year() < h.srv.asOf.Year() {
					lastYear++
				}
			}
		}
		if d.PeerYear != h.srv.asOf.Year() || d.PeerCount != want {
			t.Errorf("%d (SIC %s): year %d, %d businesses compared; want %d, %d (itself and every peer's latest filing)",
				b.ID, d.SIC, d.PeerYear, d.PeerCount, h.srv.asOf.Year(), want)
		}
		if lastYear > 0 {
			checked++
		}
	}
	if checked == 0 {
		t.Error("no business whose newest year ends in the as-of year has peers filing in the year before; the test shows nothing")
	}
}

// A business whose newest statement is from the year before, asked for
// the year still running, is measured as its peers are, by its latest
// filing: it stays in its own comparison.
func TestPeerAnalysisYearStillRunningKeepsTheBusiness(t *testing.T) {
	h := demoNowHarness(t)
	key := h.login("demo")
	checked := 0
	for i := range h.srv.ds.Businesses {
		b := &h.srv.ds.Businesses[i]
		if len(b.Statements) == 0 || periodEnd(&b.Statements[0]).year() != h.srv.asOf.Year()-1 || checked == 5 {
			continue
		}
		d := h.peers(key, url.Values{"id": {fmt.Sprint(b.ID)}, paramYear: {fmt.Sprint(h.srv.asOf.Year())}})
		valued := 0
		for _, r := range d.Ratios {
			if r.Value != nil {
				valued++
			}
		}
		if valued == 0 {
			t.Errorf("%d asked for %d: no ratio of its own among %d", b.ID, h.srv.asOf.Year(), len(d.Ratios))
		}
		checked++
	}
	if checked == 0 {
		t.Error("no business whose newest statement is from the year before")
	}
}
