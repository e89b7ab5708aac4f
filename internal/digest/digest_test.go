package digest

import (
	"context"
	"strings"
	"testing"
	"time"

	"creditdash/internal/store"
)

// fakeSource holds n alerts and one waiting request, and no ledger.
type fakeSource struct{ alerts int }

func (f fakeSource) AlertsSince(_ context.Context, _ store.Analyst, _ time.Time, limit int) ([]store.Alert, int, error) {
	var out []store.Alert
	for i := range min(f.alerts, limit) {
		out = append(out, store.Alert{ID: int64(i), Triggered: store.Triggered{BusinessID: 1001, BusinessName: "Westbridge", Year: 2026, Month: 10, New: 2},
			Rule: store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 1001, Score: store.ScoreRisk, Condition: store.Below, Threshold: 5}})
	}
	return out, f.alerts, nil
}
func (fakeSource) Requests(context.Context, store.Analyst, float64) (store.RequestLists, error) {
	return store.RequestLists{Waiting: []store.LimitRequest{{ID: 7, Account: "A-1", Amount: 50000, RequestedBy: "trade"}}}, nil
}
func (fakeSource) LedgerDates(context.Context, store.Analyst) ([]string, error) { return nil, nil }
func (fakeSource) Accounts(context.Context, store.Analyst, string) ([]store.Account, error) {
	return nil, nil
}
func (fakeSource) LedgerBalances(context.Context, store.Analyst, string) ([]store.LedgerBalance, error) {
	return nil, nil
}
func (fakeSource) KnownScores(context.Context, store.Analyst) (map[int32]map[store.Score]store.KnownScore, error) {
	return nil, nil
}
func (fakeSource) RiskAsOf(context.Context, store.Analyst, int) (map[int32]float64, error) {
	return nil, nil
}
func (fakeSource) LastReviews(context.Context, store.Analyst) (map[string]store.Review, error) {
	return nil, nil
}
func (fakeSource) OutcomesSince(context.Context, store.Analyst, time.Time, int) ([]store.LimitRequest, int, error) {
	return nil, 0, nil
}
func (fakeSource) StatementYears(context.Context, store.Analyst) (map[int32]int, error) {
	return nil, nil
}

var analyst = store.Analyst{Service: "svc", User: "demo"}

// A digest holds at most MaxLines lines; the rest are counted in each
// section's More, in order. Requests show only for deciders. (How the
// mail words and renders them: internal/views and internal/app.)
func TestDigestBounded(t *testing.T) {
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	c, err := Build(t.Context(), fakeSource{alerts: 350}, analyst, 100000, now.AddDate(0, 0, -7), now)
	if err != nil {
		t.Fatal(err)
	}
	if c.Lines() != MaxLines || c.Alerts.More != 150 || c.Waiting.More != 1 || len(c.Alerts.List) != MaxLines {
		t.Fatalf("lines %d, more %d and %d; want %d, 150 and 1", c.Lines(), c.Alerts.More, c.Waiting.More, MaxLines)
	}
	if c.Ledgers != 0 || c.Bridge.Lines != 0 {
		t.Fatalf("no ledger, yet %d ledgers and %d bridge lines", c.Ledgers, c.Bridge.Lines)
	}

	c, _ = Build(t.Context(), fakeSource{alerts: 3}, analyst, 0, now.AddDate(0, 0, -7), now)
	if len(c.Waiting.List) != 0 || c.Waiting.More != 0 || c.Lines() != 3 {
		t.Fatalf("a non-decider's digest: %+v", c.Waiting)
	}
}

// The mails are worded and rendered by what the wiring hands the service:
// a digest's unsubscribe link and the public URL reach it.
func TestComposeHandsLinksToTheRenderer(t *testing.T) {
	var got Links
	s := New(Config{PublicURL: "https://credit.example.test/", Secret: "x",
		DigestMail: func(c Content, l Links) (Parts, error) {
			got = l
			return Parts{Subject: "s", Text: "t", HTML: "h"}, nil
		}})
	m := s.Compose(Content{Analyst: analyst}, "boss@example.com")
	if got.Public != "https://credit.example.test" || !strings.HasPrefix(got.Unsubscribe, "https://credit.example.test/digest/unsubscribe?t=") {
		t.Fatalf("renderer got links %+v", got)
	}
	if m.Subject != "s" || m.Text != "t" || m.HTML != "h" || m.Unsubscribe != got.Unsubscribe || m.To != "boss@example.com" {
		t.Fatalf("message %+v", m)
	}
}

// Daily digests are due every UTC day, weekly ones on Mondays only.
func TestPeriod(t *testing.T) {
	mon := time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC)
	for _, c := range []struct {
		freq string
		at   time.Time
		want string
		due  bool
	}{
		{store.DigestDaily, mon, "day 2026-11-30", true},
		{store.DigestWeekly, mon, "week 2026-11-30", true},
		{store.DigestWeekly, mon.Add(time.Minute), "", false},
		{store.DigestOff, mon, "", false},
	} {
		if got, due := Period(c.freq, c.at); got != c.want || due != c.due {
			t.Errorf("Period(%s, %s) = %q, %v; want %q, %v", c.freq, c.at, got, due, c.want, c.due)
		}
	}
}

// Links: only the kind signed, unaltered, before expiry, with the key.
func TestLinks(t *testing.T) {
	s := NewSigner("secret-one")
	now := time.Now()
	tok := s.Sign(KindUnsubscribe, analyst, "a@example.com", now.Add(time.Hour))
	if a, email, err := s.Check(KindUnsubscribe, tok, now); err != nil || a != analyst || email != "a@example.com" {
		t.Fatalf("Check = %v, %q, %v", a, email, err)
	}
	for name, check := range map[string]func() error{
		"other kind": func() error { _, _, err := s.Check(KindVerify, tok, now); return err },
		"expired":    func() error { _, _, err := s.Check(KindUnsubscribe, tok, now.Add(2*time.Hour)); return err },
		"altered":    func() error { _, _, err := s.Check(KindUnsubscribe, "x"+tok, now); return err },
		"other key":  func() error { _, _, err := NewSigner("secret-two").Check(KindUnsubscribe, tok, now); return err },
		"empty":      func() error { _, _, err := s.Check(KindUnsubscribe, "", now); return err },
	} {
		if err := check(); err != ErrBadLink {
			t.Errorf("%s: %v, want ErrBadLink", name, err)
		}
	}
}

func (fakeSource) Rules(context.Context, store.Analyst) ([]store.Rule, error) { return nil, nil }
