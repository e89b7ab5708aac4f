package simulator

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"
)

// demoHarness serves the generated demo dataset, as cmd/simulator does.
func demoHarness(t *testing.T) *apiHarness {
	t.Helper()
	clock := &simClock{t: time.Date(2025, 7, 15, 9, 0, 0, 0, time.UTC)}
	ds := Generate(GenerateOptions{Seed: 1, AsOf: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
	srv := New(ds, Options{Now: clock.Now})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &apiHarness{t: t, srv: srv, ts: ts, clock: clock}
}

// demoNowAsOf is the month the demo data is made for when the dashboard
// runs in November 2026 (the month before the current one), and the month
// the dashboard's own tests use.
var demoNowAsOf = time.Date(2026, time.October, 1, 0, 0, 0, 0, time.UTC)

var (
	demoNowOnce sync.Once
	demoNowData *Dataset
)

// demoNowDataset is the demo dataset as the dashboard sees it (seed 1,
// October 2026), made once.
func demoNowDataset() *Dataset {
	demoNowOnce.Do(func() { demoNowData = Generate(GenerateOptions{Seed: 1, AsOf: demoNowAsOf}) })
	return demoNowData
}

// demoNowHarness serves demoNowDataset in the month after its as-of month.
func demoNowHarness(t *testing.T) *apiHarness {
	t.Helper()
	clock := &simClock{t: demoNowAsOf.AddDate(0, 1, 22)}
	srv := New(demoNowDataset(), Options{Now: clock.Now})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &apiHarness{t: t, srv: srv, ts: ts, clock: clock}
}

func TestDemoUsersAndIdentifiers(t *testing.T) {
	h := demoHarness(t)
	demo := h.login("demo")
	var members []struct{ BusinessId int32 }
	wantData(t, "demo portfolio", h.get(demo, "/v1/Portfolio/Businesses", nil), &members)
	in := map[int32]bool{}
	for _, m := range members {
		in[m.BusinessId] = true
	}
	for id := int32(1001); id <= 1007; id++ {
		if !in[id] {
			t.Errorf("scenario business %d is not in demo's portfolio", id)
		}
	}
	var g struct{ BusinessId int32 }
	wantData(t, "S-1004", h.get(demo, "/v1/Business/IdentificationGroup", url.Values{"SupplierId": {"S-1004"}}), &g)
	if g.BusinessId != 1004 {
		t.Errorf("S-1004 -> %d", g.BusinessId)
	}
	wantError(t, "999999", h.get(demo, "/v1/Business/Summary", url.Values{"id": {"999999"}}), 404, CodeBusinessNotFound)
	for _, path := range []string{"/v1/Business/Officers", "/v1/Business/LatestAnnualStatements"} {
		if env := h.get(demo, path, url.Values{"id": {"1007"}}).envelope(t); string(env.Data) != "[]" {
			t.Errorf("%s of 1007: %s, want []", path, env.Data)
		}
	}

	trade := h.login("trade")
	c := url.Values{"CustomerId": {"C2-1050"}}
	wantError(t, "trade before choosing", h.get(trade, "/v1/Business/Summary", c), 400, CodeTradeProviderNotSelected)
	h.do(http.MethodPost, "/v1/Trade/TradeProviders", trade, url.Values{"TradeProviderId": {"TP-2"}})
	wantData(t, "C2-1050", h.get(trade, "/v1/Business/IdentificationGroup", c), &g)
	if g.BusinessId != 1050 {
		t.Errorf("C2-1050 -> %d", g.BusinessId)
	}

	var news []newsRow
	wantData(t, "industry news", h.get(demo, "/v1/Industries/News", nil), &news)
	if len(news) == 0 || len(news) > 20 {
		t.Errorf("demo industry news: %d items, want 1 to 20", len(news))
	}
	r := h.get(h.login("ordinary"), "/v1/Portfolio/Folders", nil)
	if r.header.Get("X-RateLimit-Limit") != "10" {
		t.Errorf("ordinary: X-RateLimit-Limit = %q", r.header.Get("X-RateLimit-Limit"))
	}
}

// Scores a business does not have are null, never 0, across the demo portfolio.
func TestDemoMissingScoresAreNull(t *testing.T) {
	h := demoHarness(t)
	key := h.login("demo")
	var members []struct{ BusinessId int32 }
	wantData(t, "portfolio", h.get(key, "/v1/Portfolio/Businesses", nil), &members)
	nulls := 0
	for _, m := range members {
		var rows []struct{ RiskScore, PayScore *int }
		id := url.Values{"id": {strconv.Itoa(int(m.BusinessId))}}
		wantData(t, "history", h.get(key, "/v1/Business/CreditScoreHistory", id), &rows)
		for _, row := range rows {
			if (row.RiskScore != nil && *row.RiskScore == 0) || (row.PayScore != nil && *row.PayScore == 0) {
				t.Errorf("%d: a score of 0 in %+v", m.BusinessId, row)
			}
			if row.PayScore == nil {
				nulls++
			}
		}
	}
	if nulls == 0 {
		t.Error("no missing Pay score anywhere: 1003 has none")
	}
}

func TestDemoXMLMatchesJSON(t *testing.T) {
	h := demoHarness(t)
	keys := map[string]string{"demo": h.login("demo"), "developer": h.login("developer")}
	for _, id := range []string{"1001", "1004", "1006"} {
		for _, path := range []string{"/v1/Business/LatestAnnualStatements", "/v1/Business/PaymentSummary/Monthly",
			"/v1/Business/PaymentSummary/SIC", "/v1/Business/CreditScoreHistory", "/v1/Business/RiskHistory",
			"/v1/Business/Officers", "/v1/Business/NAICSCodes", "/v1/Business/Summary", "/v1/Business/WordFill",
			"/v1/Business/IdentificationGroup"} {
			for user, key := range keys {
				q := url.Values{"id": {id}}
				jr := h.get(key, path, q)
				q.Set("type", "xml")
				compareReplies(t, user+" "+path+"?id="+id, jr, h.get(key, path, q), nil)
			}
		}
	}
	for _, path := range []string{"/v1/Portfolio/PayScoreHistory", "/v1/Portfolio/ZScoreHistory", "/v1/Portfolio/Folders",
		"/v1/Industries/News", "/v1/News", "/v1/Portfolio/Businesses"} {
		jr := h.get(keys["demo"], path, nil)
		compareReplies(t, path, jr, h.get(keys["demo"], path, url.Values{"type": {"xml"}}), nil)
	}
}
