package upstream_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/simulator"
)

// These contract tests run the real client against the stand-in service
// over real HTTP: every operation, its success and each way it can fail.

var (
	dataOnce sync.Once
	data     *simulator.Dataset
)

func demoData() *simulator.Dataset {
	dataOnce.Do(func() {
		data = simulator.Generate(simulator.GenerateOptions{Seed: 1, AsOf: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)})
	})
	return data
}

// stand is a stand-in service behind a switchable breaker that can corrupt
// answers, as a broken proxy in front of the service would.
type stand struct {
	sim    *simulator.Server
	client *upstream.Client
	clock  *clock
	url    string // base URL, for the stand-in's /_sim hooks
	// corrupt, when set, rewrites every 200 JSON answer.
	corrupt atomic.Pointer[func([]byte) []byte]
}

func newStand(t *testing.T, timeout time.Duration) *stand {
	t.Helper()
	s := &stand{clock: &clock{t: time.Now()}}
	s.sim = simulator.New(demoData(), simulator.Options{Now: s.clock.Now})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f := s.corrupt.Load()
		if f == nil {
			s.sim.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		s.sim.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write((*f)(rec.Body.Bytes()))
	}))
	t.Cleanup(srv.Close)
	s.url = srv.URL
	c, err := upstream.New(srv.URL, upstream.Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	s.client = c
	return s
}

func (s *stand) login(t *testing.T, user string) string {
	t.Helper()
	res, err := s.client.Login(context.Background(), user, "demo")
	if err != nil {
		t.Fatalf("login %s: %v", user, err)
	}
	return res.SessionKey
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

// operation is one call of the client, with what it needs to fail each way.
type operation struct {
	name string
	path string
	// call succeeds for the demo user.
	call func(ctx context.Context, c *upstream.Client, key string) error
	// notFound, badRequest: calls the service must refuse with 404 or 400;
	// nil when the operation has no such input.
	notFound   func(ctx context.Context, c *upstream.Client, key string) error
	badRequest func(ctx context.Context, c *upstream.Client, key string) error
	// badAsTrade runs badRequest as the trade user, whose CustomerIds the
	// service refuses until a trade provider is chosen.
	badAsTrade bool
}

func business(ctx context.Context, c *upstream.Client, key string, ref upstream.BusinessRef, op string) error {
	var err error
	switch op {
	case "statements":
		_, err = c.As(key).LatestAnnualStatements(ctx, ref, upstream.StatementsQuery{Count: 3, SortOrder: upstream.SortAscending})
	case "monthly":
		_, err = c.As(key).PaymentSummaryMonthly(ctx, ref)
	case "sic":
		_, err = c.As(key).PaymentSummarySIC(ctx, ref)
	case "scores":
		_, err = c.As(key).CreditScoreHistory(ctx, ref, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC))
	case "risk":
		_, err = c.As(key).RiskHistory(ctx, ref, 12)
	case "officers":
		_, err = c.As(key).Officers(ctx, ref)
	case "naics":
		_, err = c.As(key).NAICSCodes(ctx, ref)
	case "summary":
		_, err = c.As(key).Summary(ctx, ref)
	case "wordfill":
		_, err = c.As(key).WordFill(ctx, ref)
	case "ident":
		_, err = c.As(key).IdentificationGroup(ctx, ref)
	case "peers":
		_, err = c.As(key).PeerAnalysis(ctx, ref, upstream.PeerQuery{SICPrimary: true, RiskLevel: upstream.RiskLevelAny})
	}
	return err
}

func operations() []operation {
	var ops []operation
	businessOps := []struct{ op, name, path string }{
		{"statements", "LatestAnnualStatements", "/v1/Business/LatestAnnualStatements"},
		{"monthly", "PaymentSummaryMonthly", "/v1/Business/PaymentSummary/Monthly"},
		{"sic", "PaymentSummarySIC", "/v1/Business/PaymentSummary/SIC"},
		{"scores", "CreditScoreHistory", "/v1/Business/CreditScoreHistory"},
		{"risk", "RiskHistory", "/v1/Business/RiskHistory"},
		{"officers", "Officers", "/v1/Business/Officers"},
		{"naics", "NAICSCodes", "/v1/Business/NAICSCodes"},
		{"summary", "Summary", "/v1/Business/Summary"},
		{"wordfill", "WordFill", "/v1/Business/WordFill"},
		{"ident", "IdentificationGroup", "/v1/Business/IdentificationGroup"},
		{"peers", "PeerAnalysis", "/v1/Business/PeerAnalysis"},
	}
	for _, b := range businessOps {
		ops = append(ops, operation{
			name: b.name, path: b.path,
			call: func(ctx context.Context, c *upstream.Client, key string) error {
				return business(ctx, c, key, upstream.ByID(1001), b.op)
			},
			notFound: func(ctx context.Context, c *upstream.Client, key string) error {
				return business(ctx, c, key, upstream.ByID(999999), b.op)
			},
			badRequest: func(ctx context.Context, c *upstream.Client, key string) error {
				return business(ctx, c, key, upstream.ByCustomerID("C1-1001"), b.op)
			},
			badAsTrade: true,
		})
	}
	pq := upstream.PortfolioQuery{From: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC), StartRow: 1, EndRow: 10}
	badPQ := upstream.PortfolioQuery{StartRow: 10, EndRow: 2}
	ops = append(ops,
		operation{name: "PayScoreHistory", path: "/v1/Portfolio/PayScoreHistory",
			call: func(ctx context.Context, c *upstream.Client, key string) error {
				h, err := c.As(key).PayScoreHistory(ctx, pq)
				if err == nil && (h.TotalResults == 0 || len(h.Businesses) != 10 || h.ScoreType != "PayScore") {
					return errors.New("unexpected page")
				}
				return err
			},
			badRequest: func(ctx context.Context, c *upstream.Client, key string) error {
				_, err := c.As(key).PayScoreHistory(ctx, badPQ)
				return err
			}},
		operation{name: "ZScoreHistory", path: "/v1/Portfolio/ZScoreHistory",
			call: func(ctx context.Context, c *upstream.Client, key string) error {
				h, err := c.As(key).ZScoreHistory(ctx, pq)
				if err == nil && h.ScoreType != "ZScore" {
					return errors.New("unexpected score type " + h.ScoreType)
				}
				return err
			},
			badRequest: func(ctx context.Context, c *upstream.Client, key string) error {
				_, err := c.As(key).ZScoreHistory(ctx, badPQ)
				return err
			}},
		operation{name: "Folders", path: "/v1/Portfolio/Folders",
			call: func(ctx context.Context, c *upstream.Client, key string) error {
				f, err := c.As(key).Folders(ctx)
				if err == nil && len(f) < 4 {
					return errors.New("too few folders")
				}
				return err
			}},
		operation{name: "FolderNews", path: "/v1/Portfolio/Folders/{id}/News",
			call: func(ctx context.Context, c *upstream.Client, key string) error {
				f, err := c.As(key).Folders(ctx)
				if err != nil {
					return err
				}
				_, err = c.As(key).FolderNews(ctx, f[0].FolderID)
				return err
			},
			notFound: func(ctx context.Context, c *upstream.Client, key string) error {
				_, err := c.As(key).FolderNews(ctx, 987654)
				return err
			}},
		operation{name: "PortfolioBusinesses", path: "/v1/Portfolio/Businesses",
			call: func(ctx context.Context, c *upstream.Client, key string) error {
				b, err := c.As(key).PortfolioBusinesses(ctx, 0)
				if err == nil && len(b) < 60 {
					return errors.New("too few businesses")
				}
				return err
			},
			notFound: func(ctx context.Context, c *upstream.Client, key string) error {
				_, err := c.As(key).PortfolioBusinesses(ctx, 987654)
				return err
			}},
		operation{name: "IndustryNews", path: "/v1/Industries/News",
			call: func(ctx context.Context, c *upstream.Client, key string) error {
				n, err := c.As(key).IndustryNews(ctx)
				if err == nil && (len(n) == 0 || len(n) > 20) {
					return errors.New("industry news count out of range")
				}
				return err
			}},
		operation{name: "News", path: "/v1/News",
			call: func(ctx context.Context, c *upstream.Client, key string) error {
				_, err := c.As(key).News(ctx)
				return err
			}},
		operation{name: "Search", path: "/v1/Business/Search",
			call: func(ctx context.Context, c *upstream.Client, key string) error {
				_, err := c.As(key).Search(ctx, "a", 5)
				return err
			},
			badRequest: func(ctx context.Context, c *upstream.Client, key string) error {
				_, err := c.As(key).Search(ctx, "", 5)
				return err
			}},
		operation{name: "TradeProviders", path: "/v1/Trade/TradeProviders",
			call: func(ctx context.Context, c *upstream.Client, key string) error {
				_, err := c.As(key).TradeProviders(ctx)
				return err
			}},
		operation{name: "SetTradeProvider", path: "/v1/Trade/TradeProviders",
			call: nil, // needs the trade user: TestTradeProviderFlow
			badRequest: func(ctx context.Context, c *upstream.Client, key string) error {
				_, err := c.SetTradeProvider(ctx, key, "TP-9")
				return err
			}},
		operation{name: "Download", path: "/v1/Portfolio/Download",
			call: func(ctx context.Context, c *upstream.Client, key string) error {
				d, err := c.As(key).Download(ctx, upstream.DownloadQuery{Format: "csv"})
				if err != nil {
					return err
				}
				defer d.Body.Close()
				n, err := io.Copy(io.Discard, d.Body)
				if err == nil && n == 0 {
					return errors.New("empty download")
				}
				return err
			},
			notFound: func(ctx context.Context, c *upstream.Client, key string) error {
				d, err := c.As(key).Download(ctx, upstream.DownloadQuery{FolderID: 987654})
				if err == nil {
					d.Body.Close()
				}
				return err
			},
			badRequest: func(ctx context.Context, c *upstream.Client, key string) error {
				d, err := c.As(key).Download(ctx, upstream.DownloadQuery{Layout: "Nope"})
				if err == nil {
					d.Body.Close()
				}
				return err
			}},
	)
	return ops
}

// expectKind checks err is an *upstream.Error of kind, with the code.
func expectKind(t *testing.T, what string, err, kind error, code string) *upstream.Error {
	t.Helper()
	var ue *upstream.Error
	if !errors.As(err, &ue) || !errors.Is(err, kind) {
		t.Errorf("%s: err = %v, want kind %v", what, err, kind)
		return nil
	}
	if code != "" && ue.Code != code {
		t.Errorf("%s: code = %q, want %q", what, ue.Code, code)
	}
	return ue
}

func TestContractEveryOperation(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 2*time.Second)
	key := s.login(t, "demo")
	trade := s.login(t, "trade")
	for _, op := range operations() {
		t.Run(op.name, func(t *testing.T) {
			if op.call != nil {
				if err := op.call(ctx, s.client, key); err != nil {
					t.Fatalf("success: %v", err)
				}
				err := op.call(ctx, s.client, "not-a-session-key")
				expectKind(t, "invalid key", err, upstream.ErrSessionExpired, "InvalidSessionKey")
			}
			if op.notFound != nil {
				expectKind(t, "unknown", op.notFound(ctx, s.client, key), upstream.ErrNotFound, "")
			}
			if op.badRequest != nil {
				k := key
				if op.badAsTrade {
					k = trade
				}
				if ue := expectKind(t, "bad request", op.badRequest(ctx, s.client, k), upstream.ErrBadRequest, ""); ue != nil && ue.Message == "" {
					t.Errorf("bad request: the service's text is missing: %+v", ue)
				}
			}
		})
	}
}

func TestContractExpiredSession(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 2*time.Second)
	key := s.login(t, "demo")
	s.clock.Add(61 * time.Minute)
	for _, op := range operations() {
		if op.call == nil {
			continue
		}
		expectKind(t, op.name, op.call(ctx, s.client, key), upstream.ErrSessionExpired, "SessionExpired")
	}
}

func TestContractRateLimitWithReset(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 2*time.Second)
	for _, op := range operations() {
		if op.call == nil {
			continue
		}
		t.Run(op.name, func(t *testing.T) {
			s.sim.Reset()
			key := s.login(t, "ordinary")
			var k lastQuota
			for i := 0; i < 10; i++ {
				_, _ = s.client.Kept(key, &k).Folders(ctx)
			}
			if last := k.last; last.Limit != 10 || last.Remaining != 0 {
				t.Fatalf("quota after 10 calls = %+v, want 10 with 0 left", last)
			}
			ue := expectKind(t, "11th call", op.call(ctx, s.client, key), upstream.ErrRateLimited, "RateLimitExceeded")
			if ue != nil && (ue.RetryAfter <= 0 || ue.RetryAfter > time.Hour) {
				t.Errorf("RetryAfter = %v, want within the hour", ue.RetryAfter)
			}
		})
	}
}

// lastQuota is a keeper that keeps nothing and notes the last quota an
// answer reported.
type lastQuota struct{ last upstream.RateLimit }

func (k *lastQuota) Read(ctx context.Context, _ upstream.Request, _ any, fetch upstream.Fetch) error {
	a, err := fetch.Do(ctx, false)
	if a.HasQuota {
		k.last = a.Quota
	}
	return err
}

func (k *lastQuota) Spend(ctx context.Context, _ string, call func(context.Context) (upstream.Answer, error)) error {
	_, err := call(ctx)
	return err
}

func TestContractInjectedServerErrorAndTimeout(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 150*time.Millisecond)
	key := s.login(t, "demo")
	for _, op := range operations() {
		if op.call == nil {
			continue
		}
		t.Run(op.name, func(t *testing.T) {
			s.sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorStatus: 500})
			expectKind(t, "injected 500", op.call(ctx, s.client, key), upstream.ErrUnavailable, "")
			s.sim.SetFaults(simulator.Faults{Latency: 400 * time.Millisecond, ErrorStatus: 500})
			expectKind(t, "timeout", op.call(ctx, s.client, key), upstream.ErrUnavailable, "")
			s.sim.SetFaults(simulator.Faults{ErrorStatus: 500})
		})
	}
}

func TestContractMalformedAndRefusedAnswers(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 2*time.Second)
	key := s.login(t, "demo")
	truncate := func(b []byte) []byte { return b[:len(b)/2] }
	refuse := func(b []byte) []byte {
		if bytes.HasPrefix(b, []byte(`{"Success":true`)) {
			return []byte(`{"Success":false,"Data":"Refused for reasons of its own.","ErrorCode":"SomethingElse"}`)
		}
		return b
	}
	for _, op := range operations() {
		if op.call == nil || op.name == "Download" || op.name == "FolderNews" {
			continue // Download is not an envelope; FolderNews calls Folders first
		}
		t.Run(op.name, func(t *testing.T) {
			s.corrupt.Store(&truncate)
			defer s.corrupt.Store(nil)
			if ue := expectKind(t, "truncated body", op.call(ctx, s.client, key), upstream.ErrMalformed, ""); ue != nil && ue.Op == "" {
				t.Error("the error does not name the operation")
			}
			s.corrupt.Store(&refuse)
			expectKind(t, "Success:false on a 200", op.call(ctx, s.client, key), upstream.ErrMalformed, "SomethingElse")
		})
	}
}

func TestContractTradeProviderFlow(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 2*time.Second)
	key := s.login(t, "trade")
	ref := upstream.ByCustomerID("C1-1001")
	_, err := s.client.As(key).Summary(ctx, ref)
	expectKind(t, "CustomerId before choosing", err, upstream.ErrBadRequest, "TradeProviderNotSelected")

	tp, err := s.client.As(key).TradeProviders(ctx)
	if err != nil || tp.Current != "" || len(tp.Providers) != 2 {
		t.Fatalf("TradeProviders = %+v, %v", tp, err)
	}
	msg, err := s.client.SetTradeProvider(ctx, key, "TP-1")
	if err != nil || msg == "" {
		t.Fatalf("SetTradeProvider = %q, %v", msg, err)
	}
	id, err := s.client.As(key).IdentificationGroup(ctx, ref)
	if err != nil || id.BusinessID != 1001 {
		t.Fatalf("IdentificationGroup(C1-1001) = %+v, %v", id, err)
	}
	if _, err := s.client.As(key).Summary(ctx, upstream.ByCustomerID("C2-1001")); !errors.Is(err, upstream.ErrNotFound) {
		t.Errorf("a TP-2 customer id under TP-1: err = %v, want not found", err)
	}
	if tp, _ := s.client.As(key).TradeProviders(ctx); tp.Current != "TP-1" {
		t.Errorf("Current = %q after choosing TP-1", tp.Current)
	}
}

func TestContractSupplierIDs(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 2*time.Second)
	key := s.login(t, "demo")
	id, err := s.client.As(key).IdentificationGroup(ctx, upstream.BySupplierID("S-1001"))
	if err != nil || id.BusinessID != 1001 || id.BusinessName == "" {
		t.Fatalf("IdentificationGroup(S-1001) = %+v, %v", id, err)
	}
	_, err = s.client.As(key).Summary(ctx, upstream.BySupplierID("S-999999"))
	expectKind(t, "unknown supplier", err, upstream.ErrNotFound, "")
}

func TestContractLoginFailures(t *testing.T) {
	s := newStand(t, 2*time.Second)
	_, err := s.client.Login(context.Background(), "demo", "wrong")
	if ue := expectKind(t, "wrong password", err, upstream.ErrInvalidCredentials, "InvalidCredentials"); ue != nil && ue.Message == "" {
		t.Error("no message from the service")
	}
}

func TestContractValuesDecode(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 2*time.Second)
	key := s.login(t, "demo")
	rows, err := s.client.As(key).PaymentSummaryMonthly(ctx, upstream.ByID(1001))
	if err != nil || len(rows) < 12 {
		t.Fatalf("monthly: %d rows, %v", len(rows), err)
	}
	if _, ok := rows[0].Month(); !ok || !rows[0].DBTIndex.OK || rows[0].TotalDue <= 0 {
		t.Errorf("first monthly row = %+v", rows[0])
	}
	scores, err := s.client.As(key).CreditScoreHistory(ctx, upstream.ByID(1003), time.Time{}, time.Time{})
	if err != nil || len(scores) == 0 {
		t.Fatalf("scores of 1003: %v", err)
	}
	for _, r := range scores {
		if r.PayScore.OK {
			t.Fatalf("1003 has a Pay score in %d-%02d, want none (thin trade file)", r.Year, r.Month)
		}
	}
	officers, err := s.client.As(key).Officers(ctx, upstream.ByID(1001))
	if err != nil || len(officers) < 3 || officers[0].DateOfHire.IsZero() {
		t.Fatalf("officers: %+v, %v", officers, err)
	}
	empty, err := s.client.As(key).Officers(ctx, upstream.ByID(1007))
	if err != nil || len(empty) != 0 {
		t.Errorf("officers of 1007 = %v, %v; want none", empty, err)
	}
	news, err := s.client.As(key).IndustryNews(ctx)
	if err != nil || len(news) == 0 {
		t.Fatal(err)
	}
	if _, ok := news[0].Published(); !ok {
		t.Errorf("pubDate %q does not parse", news[0].PubDate)
	}
	dev := s.login(t, "developer")
	full, _ := s.client.As(key).LatestAnnualStatements(ctx, upstream.ByID(1001), upstream.StatementsQuery{})
	limited, _ := s.client.As(dev).LatestAnnualStatements(ctx, upstream.ByID(1001), upstream.StatementsQuery{})
	if len(full) == 0 || len(limited) == 0 || len(limited[0].Values) >= len(full[0].Values) {
		t.Errorf("API-Only statements have %d keys, Full %d: want fewer", len(limited[0].Values), len(full[0].Values))
	}
}
