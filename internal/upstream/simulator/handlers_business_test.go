package simulator

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
)

var paymentFields = []string{"CategoryName", "CategoryCode", "MonthReported", "Accounts", "DBTIndex",
	"AverageDBTIndex", "TotalDue", "CurrentAmount", "PastDue30Days", "PastDue60Days", "PastDue90Days",
	"PastDueOver90Days", "OtherAmount", "CreditBalance", "CurrentAmountPercent", "PastDue30DaysPercent",
	"PastDue60DaysPercent", "PastDue90DaysPercent", "PastDueOver90DaysPercent", "OtherAmountPercent"}

// TestBusinessOperationShapes checks every business operation's Data and
// its exact field names.
func TestBusinessOperationShapes(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	id := url.Values{"id": {"1001"}}
	list := func(path string, n int, fields ...string) {
		t.Helper()
		var rows []map[string]any
		wantData(t, path, h.get(key, path, id), &rows)
		if len(rows) != n {
			t.Fatalf("%s: %d rows, want %d", path, len(rows), n)
		}
		for _, row := range rows {
			wantKeys(t, path, row, fields...)
		}
	}
	object := func(path string, fields ...string) map[string]any {
		t.Helper()
		var obj map[string]any
		wantData(t, path, h.get(key, path, id), &obj)
		wantKeys(t, path, obj, fields...)
		return obj
	}
	list("/v1/Business/LatestAnnualStatements", 3, "values")
	list("/v1/Business/PaymentSummary/Monthly", 2, paymentFields...)
	list("/v1/Business/PaymentSummary/SIC", 4, paymentFields...)
	list("/v1/Business/CreditScoreHistory", 24, "RiskScore", "DBTScore", "ZScore", "PayScore", "Year", "Month", "Quarter")
	list("/v1/Business/RiskHistory", 30, "Year", "Month", "AverageRiskScore")
	list("/v1/Business/Officers", 1, "FirstName", "MiddleInitial", "LastName", "Age", "Title", "DateOfTitle", "DateOfHire")
	list("/v1/Business/NAICSCodes", 2, "Code", "Name")
	if s := object("/v1/Business/Summary", "DateFiled", "Text"); s["Text"] != "Acme runs supermarkets." {
		t.Errorf("Summary = %v", s)
	}
	if w := object("/v1/Business/WordFill", "Text"); w["Text"] != "Revenue fell while margins held." {
		t.Errorf("WordFill = %v", w)
	}
	g := object("/v1/Business/IdentificationGroup", "BusinessId", "BusinessName", "Address", "City", "State", "Country", "Ticker", "Public")
	if g["BusinessId"] != 1001.0 || g["Ticker"] != "ACME" || g["Public"] != true {
		t.Errorf("IdentificationGroup = %v", g)
	}
}

func TestEmptyListsAreEmptyNotNull(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	for _, path := range []string{"/v1/Business/LatestAnnualStatements", "/v1/Business/Officers",
		"/v1/Business/NAICSCodes", "/v1/Business/PaymentSummary/Monthly", "/v1/Business/CreditScoreHistory"} {
		env := h.get(key, path, url.Values{"id": {"1007"}}).envelope(t)
		if string(env.Data) != "[]" {
			t.Errorf("%s of 1007: Data = %s, want []", path, env.Data)
		}
	}
}

func TestStatements(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	years := func(q url.Values) []float64 {
		t.Helper()
		q.Set("id", "1001")
		var rows []struct {
			Values map[string]struct {
				Label string
				Value *float64
				Text  string
			} `json:"values"`
		}
		wantData(t, "statements "+q.Encode(), h.get(key, "/v1/Business/LatestAnnualStatements", q), &rows)
		var out []float64
		for _, r := range rows {
			fy, ok := r.Values["FiscalYear"]
			if !ok || fy.Value == nil || r.Values["PeriodEndDate"].Text == "" {
				t.Fatalf("a statement without FiscalYear or PeriodEndDate: %+v", r.Values)
			}
			if g, ok := r.Values["Goodwill"]; ok && g.Value != nil {
				t.Errorf("Goodwill has no value in the data, got %v", *g.Value)
			}
			out = append(out, *fy.Value)
		}
		return out
	}
	cases := []struct {
		q    url.Values
		want []float64
	}{
		{url.Values{}, []float64{2024, 2023, 2022}},
		{url.Values{"SortOrder": {"D"}}, []float64{2024, 2023, 2022}},
		{url.Values{"SortOrder": {"A"}}, []float64{2022, 2023, 2024}},
		{url.Values{"count": {"2"}}, []float64{2024, 2023}},
		{url.Values{"count": {"1"}, "SortOrder": {"A"}}, []float64{2022}},
		{url.Values{"StandardYear": {"2023"}}, []float64{2023}},
		{url.Values{"StandardYear": {"1990"}}, nil},
	}
	for _, c := range cases {
		if got := years(c.q); !slices.Equal(got, c.want) {
			t.Errorf("statements %s: years %v, want %v", c.q.Encode(), got, c.want)
		}
	}
	for _, q := range []url.Values{{"SortOrder": {"X"}}, {"count": {"0"}}, {"count": {"-1"}}, {"count": {"x"}}, {"StandardYear": {"20x4"}}} {
		q.Set("id", "1001")
		wantError(t, "statements "+q.Encode(), h.get(key, "/v1/Business/LatestAnnualStatements", q), 400, CodeInvalidParameter)
	}
}

func TestAPIOnlyStatementKeys(t *testing.T) {
	h := newAPIHarness(t, Options{})
	allowed := map[string]bool{"FiscalYear": true, "PeriodEndDate": true}
	for _, k := range APIOnlyKeys() {
		allowed[k] = true
	}
	var full, limited []struct {
		Values map[string]any `json:"values"`
	}
	q := url.Values{"id": {"1001"}}
	wantData(t, "demo", h.get(h.login("demo"), "/v1/Business/LatestAnnualStatements", q), &full)
	wantData(t, "developer", h.get(h.login("developer"), "/v1/Business/LatestAnnualStatements", q), &limited)
	if _, ok := full[0].Values["EBIT"]; !ok {
		t.Fatalf("full access lacks EBIT: %v", full[0].Values)
	}
	for _, st := range limited {
		for k := range st.Values {
			if !allowed[k] {
				t.Errorf("API-Only user sees %q", k)
			}
		}
	}
	if len(limited[0].Values) >= len(full[0].Values) {
		t.Errorf("API-Only sees %d keys, full access %d: want fewer", len(limited[0].Values), len(full[0].Values))
	}
}

func TestCreditScoreHistory(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	type row struct {
		RiskScore, DBTScore, PayScore *int
		ZScore                        *float64
		Year, Month, Quarter          int
	}
	get := func(q url.Values) []row {
		t.Helper()
		q.Set("id", "1001")
		var rows []row
		wantData(t, "history "+q.Encode(), h.get(key, "/v1/Business/CreditScoreHistory", q), &rows)
		return rows
	}
	rows := get(url.Values{})
	if len(rows) != 24 || rows[0].Year != 2023 || rows[0].Month != 7 || rows[23].Year != 2025 || rows[23].Month != 6 {
		t.Fatalf("default range: %d rows from %v to %v, want 24 from 2023-07 to 2025-06", len(rows), rows[0], rows[len(rows)-1])
	}
	for _, r := range rows {
		if r.Quarter != (r.Month-1)/3+1 {
			t.Errorf("%d-%d: Quarter = %d", r.Year, r.Month, r.Quarter)
		}
		if r.PayScore != nil {
			t.Errorf("%d-%d: PayScore = %d, want null (no Pay score)", r.Year, r.Month, *r.PayScore)
		}
		if (r.ZScore != nil) != (r.Month%3 == 0) {
			t.Errorf("%d-%d: ZScore = %v, want only in quarter months", r.Year, r.Month, r.ZScore)
		}
	}
	rows = get(url.Values{"StartDate": {"2025-01-15"}, "EndDate": {"2025-03-01"}})
	if len(rows) != 3 || rows[0].Month != 1 || rows[2].Month != 3 {
		t.Errorf("2025-01..03: %v", rows)
	}
	if rows = get(url.Values{"StartDate": {"2025-05-01"}}); len(rows) != 2 {
		t.Errorf("from 2025-05: %d rows, want 2", len(rows))
	}
	for _, q := range []url.Values{
		{"StartDate": {"2025-13-01"}}, {"EndDate": {"2025-02-30"}}, {"StartDate": {"2025-1-1"}},
		{"StartDate": {"06/01/2025"}}, {"StartDate": {"2025-06-02"}, "EndDate": {"2025-06-01"}},
	} {
		q.Set("id", "1001")
		wantError(t, "history "+q.Encode(), h.get(key, "/v1/Business/CreditScoreHistory", q), 400, CodeInvalidParameter)
	}
}

func TestRiskHistory(t *testing.T) {
	h := newAPIHarness(t, Options{})
	var rows []struct {
		Year, Month      int
		AverageRiskScore float64
	}
	wantData(t, "risk", h.get(h.login("demo"), "/v1/Business/RiskHistory", url.Values{"id": {"1001"}, "count": {"3"}}), &rows)
	if len(rows) != 3 || rows[0].Month != 6 || rows[1].Month != 5 || rows[2].Month != 4 || rows[0].AverageRiskScore != 7.25 {
		t.Errorf("RiskHistory count=3: %+v, want 2025-06, -05, -04 at 7.25", rows)
	}
}

func TestBusinessIdentification(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	name := func(what string, q url.Values) string {
		t.Helper()
		var g struct{ BusinessName string }
		wantData(t, what, h.get(key, "/v1/Business/IdentificationGroup", q), &g)
		return g.BusinessName
	}
	if got := name("supplier", url.Values{"SupplierId": {"S-1002"}}); got != "Zenith Manufacturing Inc" {
		t.Errorf("SupplierId S-1002 -> %q", got)
	}
	if got := name("id wins", url.Values{"id": {"1001"}, "SupplierId": {"S-1002"}}); got != "Acme Retail Corp" {
		t.Errorf("id and SupplierId -> %q, want the id's business", got)
	}
	errs := []struct {
		q      url.Values
		status int
		code   string
	}{
		{url.Values{}, 400, CodeMissingIdentifier},
		{url.Values{"id": {""}}, 400, CodeMissingIdentifier},
		{url.Values{"id": {"abc"}}, 400, CodeInvalidParameter},
		{url.Values{"id": {"2147483648"}}, 400, CodeInvalidParameter},
		{url.Values{"id": {"10.5"}}, 400, CodeInvalidParameter},
		{url.Values{"id": {"999999"}}, 404, CodeBusinessNotFound},
		{url.Values{"id": {"-1"}}, 404, CodeBusinessNotFound},
		{url.Values{"SupplierId": {"S-9"}}, 404, CodeBusinessNotFound},
		{url.Values{"CustomerId": {"C1-1001"}}, 404, CodeBusinessNotFound}, // demo has no trade providers
	}
	for _, e := range errs {
		for _, path := range []string{"/v1/Business/Summary", "/v1/Business/Officers", "/v1/Business/LatestAnnualStatements"} {
			wantError(t, path+"?"+e.q.Encode(), h.get(key, path, e.q), e.status, e.code)
		}
	}
	// Any user may look a business up by id.
	if r := h.get(h.login("ordinary"), "/v1/Business/Summary", url.Values{"id": {"1008"}}); r.status != 200 {
		t.Errorf("ordinary looking up 1008: status = %d", r.status)
	}
}

func TestTradeProviderFlow(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("trade")
	cust := func(id string) apiReply {
		return h.get(key, "/v1/Business/IdentificationGroup", url.Values{"CustomerId": {id}})
	}
	wantError(t, "before choosing", cust("C2-1002"), 400, CodeTradeProviderNotSelected)

	var tps map[string]any
	wantData(t, "GET providers", h.get(key, "/v1/Trade/TradeProviders", nil), &tps)
	wantKeys(t, "TradeProviders", tps, "Current", "TradeProviders")
	if tps["Current"] != "" {
		t.Errorf("Current = %v before choosing, want empty", tps["Current"])
	}
	list, _ := tps["TradeProviders"].([]any)
	if len(list) != 2 {
		t.Fatalf("TradeProviders = %v, want two", tps["TradeProviders"])
	}
	wantKeys(t, "TradeProvider", list[0].(map[string]any), "TradeProviderId", "Name")

	post := func(form url.Values) apiReply { return h.do(http.MethodPost, "/v1/Trade/TradeProviders", key, form) }
	wantError(t, "unknown provider", post(url.Values{"TradeProviderId": {"TP-7"}}), 400, CodeInvalidTradeProvider)
	wantError(t, "no provider", post(url.Values{}), 400, CodeMissingParameter)
	var msg string
	wantData(t, "choose TP-2", post(url.Values{"TradeProviderId": {"TP-2"}}), &msg)
	if msg == "" {
		t.Error("choosing a provider: Data is empty, want a sentence")
	}
	var g struct{ BusinessId int32 }
	wantData(t, "C2-1002", cust("C2-1002"), &g)
	if g.BusinessId != 1002 {
		t.Errorf("C2-1002 -> %d, want 1002", g.BusinessId)
	}
	wantError(t, "TP-1's customer under TP-2", cust("C1-1001"), 404, CodeBusinessNotFound)

	// The choice belongs to the account: a new session keeps it.
	key = h.login("trade")
	wantData(t, "GET providers again", h.get(key, "/v1/Trade/TradeProviders", nil), &tps)
	if tps["Current"] != "TP-2" {
		t.Errorf("Current = %v in a new session, want TP-2", tps["Current"])
	}
	wantData(t, "C2-1001 new session", cust("C2-1001"), &g)

	// With a single provider no choice is needed.
	solo := h.login("solo")
	wantData(t, "solo", h.get(solo, "/v1/Business/IdentificationGroup", url.Values{"CustomerId": {"C-1003"}}), &g)
	if g.BusinessId != 1003 {
		t.Errorf("C-1003 -> %d, want 1003", g.BusinessId)
	}
}
