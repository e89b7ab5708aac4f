package simulator

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// simClock is a clock tests move by hand.
type simClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *simClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *simClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func simIntPtr(n int) *int                   { return &n }
func simFloatPtr(f float64) *float64         { return &f }
func simPoint(l string, v float64) DataPoint { return DataPoint{Label: l, Value: simFloatPtr(v)} }

// testDataset is a small hand-made dataset with the cases the tests need:
// a public and a private business, one without Pay, one with nothing, and
// one whose name needs escaping everywhere.
func testDataset() *Dataset {
	scores := func(withPay, withZ bool, risk int) []ScoreMonth {
		var out []ScoreMonth
		for m := monthOf(2023, 1); m <= monthOf(2025, 6); m++ {
			sm := ScoreMonth{Year: m.year(), Month: m.month(), Risk: simIntPtr(risk), AverageRisk: simFloatPtr(float64(risk) + 0.25), DBT: simIntPtr(3)}
			if withPay {
				sm.Pay = simIntPtr(1 + m.month()%10)
			}
			if withZ && m.month()%3 == 0 {
				sm.Z = simFloatPtr(2.5 + float64(m.month())/100)
			}
			out = append(out, sm)
		}
		return out
	}
	news := func(id int32, n int) []NewsItem {
		var out []NewsItem
		for i := range n {
			at := time.Date(2025, 6, 20-i*3, 9, 0, 0, 0, time.UTC)
			out = append(out, NewsItem{ID: int64(id)*100 + int64(i), Title: fmt.Sprintf("Story %d of %d", i, id),
				Link: "https://news.example.com/" + fmt.Sprint(id), Description: "<p>Results &amp; outlook</p>",
				PubDate: at.Format(time.RFC1123)})
		}
		return out
	}
	payment := func(month, cat, code string, dbt int) PaymentRow {
		return PaymentRow{CategoryName: cat, CategoryCode: code, MonthReported: month, Accounts: 12, DBTIndex: simIntPtr(dbt),
			AverageDBTIndex: simIntPtr(6), TotalDue: 100000, CurrentAmount: 90000, PastDue30Days: 5000, PastDue60Days: 2500,
			PastDue90Days: 1500, PastDueOver90Days: 1000, CurrentAmountPercent: 90, PastDue30DaysPercent: 5,
			PastDue60DaysPercent: 2.5, PastDue90DaysPercent: 1.5, PastDueOver90DaysPercent: 1}
	}
	acme := Business{ID: 1001, Name: "Acme Retail Corp", Address: "1 Main St", City: "Columbus", State: "OH",
		Country: "US", Ticker: "ACME", Public: true,
		NAICS:             []NAICSCode{{"445110", "Supermarkets"}, {"424410", "General line grocery merchant wholesalers"}},
		Summary:           Summary{DateFiled: "2025-03-01T00:00:00", Text: "Acme runs supermarkets."},
		FinancialComments: "Revenue fell while margins held.",
		Statements: []Statement{
			{FiscalYear: 2024, PeriodEndDate: "2024-12-31T00:00:00", Values: map[string]DataPoint{
				"Sales": simPoint("Sales", 1.5e9), "NetIncome": simPoint("Net income", -2.5e7), "TotalAssets": simPoint("Total assets", 9e8),
				"EBIT": simPoint("EBIT", 4e7), "Goodwill": {Label: "Goodwill"}}},
			{FiscalYear: 2023, PeriodEndDate: "2023-12-31T00:00:00", Values: map[string]DataPoint{
				"Sales": simPoint("Sales", 1.6e9), "NetIncome": simPoint("Net income", 1e7), "EBIT": simPoint("EBIT", 6e7)}},
			{FiscalYear: 2022, PeriodEndDate: "2022-12-31T00:00:00", Values: map[string]DataPoint{
				"Sales": simPoint("Sales", 1.7e9)}},
		},
		PaymentsMonthly: []PaymentRow{payment("2025-06", "All categories", "", 3), payment("2025-05", "All categories", "", 4)},
		PaymentsSIC: []PaymentRow{payment("2025-06", "Trucking and warehousing", "42", 2), payment("2025-06", "Chemicals", "28", 5),
			payment("2025-05", "Trucking and warehousing", "42", 3), payment("2025-05", "Chemicals", "28", 6)},
		Scores: scores(false, true, 7),
		Officers: []Officer{{FirstName: "Ann", MiddleInitial: "B", LastName: "Cole", Age: 58, Title: "CEO",
			DateOfTitle: "2019-04-01T00:00:00", DateOfHire: "2010-01-04T00:00:00"}},
		News: news(1001, 3),
	}
	zenith := Business{ID: 1002, Name: "Zenith Manufacturing Inc", City: "Dayton", State: "OH", Country: "US",
		NAICS: []NAICSCode{{"336111", "Automobile manufacturing"}}, Scores: scores(true, false, 9), News: news(1002, 2),
		PaymentsMonthly: []PaymentRow{payment("2025-06", "All categories", "", 20)}}
	thin := Business{ID: 1003, Name: "acme distribution llc", City: "Akron", State: "OH", Country: "US",
		NAICS: []NAICSCode{{"423430", "Computer equipment merchant wholesalers"}}, Scores: scores(false, false, 5)}
	empty := Business{ID: 1007, Name: "Empty Shell Co"}
	odd := Business{ID: 1008, Name: "Odd <Chars> & \"Quotes\", Inc\nLine\x01", City: "São Paulo", Country: "BR",
		NAICS: []NAICSCode{{"445110", "Supermarkets"}}, Scores: scores(true, true, 4)}
	industry := map[string][]NewsItem{"44": news(4400, 25), "42": news(4200, 2)}
	return &Dataset{AsOf: "2025-06", Businesses: []Business{acme, zenith, thin, empty, odd}, IndustryNews: industry,
		Users: []User{
			{Username: "demo", Password: "demo", UserID: 1, Type: UserAPIUser, Access: AccessFull,
				Folders: []Folder{
					{FolderID: 11, FolderName: "Watch list", DateCreated: "2024-01-02T00:00:00", DateUpdated: "2025-06-01T00:00:00", BusinessIDs: []int32{1001, 1002, 1007}},
					{FolderID: 12, FolderName: "Retail", DateCreated: "2024-02-02T00:00:00", DateUpdated: "2025-05-01T00:00:00", BusinessIDs: []int32{1001, 1003, 1008}},
				},
				Suppliers: map[string]int32{"S-1001": 1001, "S-1002": 1002}},
			{Username: "ordinary", Password: "demo", UserID: 2, Type: UserOrdinary, Access: AccessFull,
				Folders: []Folder{{FolderID: 21, FolderName: "Mine", BusinessIDs: []int32{1002}}}},
			{Username: "developer", Password: "demo", UserID: 3, Type: UserAPIDeveloper, Access: AccessAPIOnly,
				Folders: []Folder{{FolderID: 31, FolderName: "Dev", BusinessIDs: []int32{1001}}}},
			{Username: "trade", Password: "demo", UserID: 4, Type: UserAPIUser, Access: AccessFull,
				TradeProviders: []TradeProvider{
					{ID: "TP-1", Name: "First provider", Customers: map[string]int32{"C1-1001": 1001}},
					{ID: "TP-2", Name: "Second provider", Customers: map[string]int32{"C2-1001": 1001, "C2-1002": 1002}},
				}},
			{Username: "solo", Password: "demo", UserID: 5, Type: UserAPIUser, Access: AccessFull,
				TradeProviders: []TradeProvider{{ID: "TP-9", Name: "Only provider", Customers: map[string]int32{"C-1003": 1003}}}},
		}}
}

// apiHarness is a server under test with its fake clock.
type apiHarness struct {
	t     *testing.T
	srv   *Server
	ts    *httptest.Server
	clock *simClock
}

func newAPIHarness(t *testing.T, opts Options) *apiHarness {
	t.Helper()
	clock := &simClock{t: time.Date(2025, 7, 15, 9, 15, 2, 0, time.UTC)}
	if opts.Now == nil {
		opts.Now = clock.Now
	}
	srv := New(testDataset(), opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &apiHarness{t: t, srv: srv, ts: ts, clock: clock}
}

// apiReply is a raw answer: status, headers and body.
type apiReply struct {
	status int
	header http.Header
	body   []byte
}

// rawEnvelope decodes the envelope but leaves Data for the test to decode.
type rawEnvelope struct {
	Success   bool            `json:"Success"`
	Data      json.RawMessage `json:"Data"`
	ErrorCode string          `json:"ErrorCode"`
}

func (r apiReply) envelope(t *testing.T) rawEnvelope {
	t.Helper()
	var env rawEnvelope
	if err := json.Unmarshal(r.body, &env); err != nil {
		t.Fatalf("body is not an envelope: %v: %s", err, r.body)
	}
	return env
}

// do sends a raw request; key, when set, goes in the bearer header.
func (h *apiHarness) do(method, path, key string, form url.Values) apiReply {
	h.t.Helper()
	var body io.Reader
	if method == http.MethodPost {
		body = strings.NewReader(form.Encode())
	} else if len(form) > 0 {
		path += "?" + form.Encode()
	}
	req, err := http.NewRequest(method, h.ts.URL+path, body)
	if err != nil {
		h.t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := h.ts.Client().Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	return apiReply{status: resp.StatusCode, header: resp.Header, body: b}
}

func (h *apiHarness) get(key, path string, q url.Values) apiReply {
	return h.do(http.MethodGet, path, key, q)
}

// login signs user in and returns the session key.
func (h *apiHarness) login(user string) string {
	h.t.Helper()
	r := h.do(http.MethodPost, "/v1/Users/Login", "", url.Values{"Username": {user}, "Password": {"demo"}})
	if r.status != http.StatusOK {
		h.t.Fatalf("login %s: status = %d, want 200: %s", user, r.status, r.body)
	}
	var d struct{ SessionKey string }
	if err := json.Unmarshal(r.envelope(h.t).Data, &d); err != nil || d.SessionKey == "" {
		h.t.Fatalf("login %s: no session key in %s", user, r.body)
	}
	return d.SessionKey
}

// wantError checks status and ErrorCode of a failed envelope.
func wantError(t *testing.T, what string, r apiReply, status int, code string) {
	t.Helper()
	if r.status != status {
		t.Errorf("%s: status = %d, want %d: %s", what, r.status, status, r.body)
		return
	}
	env := r.envelope(t)
	if env.Success || env.ErrorCode != code {
		t.Errorf("%s: Success=%v ErrorCode=%q, want false %q", what, env.Success, env.ErrorCode, code)
	}
	var msg string
	if err := json.Unmarshal(env.Data, &msg); err != nil || msg == "" {
		t.Errorf("%s: Data = %s, want a sentence", what, env.Data)
	}
}

// data decodes a successful answer's Data into v.
func wantData(t *testing.T, what string, r apiReply, v any) {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("%s: status = %d, want 200: %s", what, r.status, r.body)
	}
	env := r.envelope(t)
	if !env.Success || env.ErrorCode != "" {
		t.Fatalf("%s: Success=%v ErrorCode=%q", what, env.Success, env.ErrorCode)
	}
	if err := json.Unmarshal(env.Data, v); err != nil {
		t.Fatalf("%s: Data: %v: %s", what, err, env.Data)
	}
}
