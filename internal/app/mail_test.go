package app

import (
	"strings"
	"testing"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/digest"
	"creditdash/internal/store"
)

// Both parts of a digest mail say what was left out ("and N more"), and
// every link starts with the public URL; the bridge shows only the lines
// the digest kept.
func TestDigestMailBothParts(t *testing.T) {
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	al := store.Alert{Triggered: store.Triggered{BusinessID: 1001, BusinessName: "Westbridge", Year: 2026, Month: 10, New: 2},
		Rule: store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 1001, Score: store.ScoreRisk, Condition: store.Below, Threshold: 5}}
	c := digest.Content{Analyst: store.Analyst{Service: "svc", User: "demo"}, Since: now.AddDate(0, 0, -7), Now: now, Ledgers: 2,
		Alerts:  digest.Items[store.Alert]{List: []store.Alert{al, al}, More: 150},
		Waiting: digest.Items[store.LimitRequest]{More: 1},
		Bridge: digest.Bridge{From: "2026-10-31", To: "2026-11-30", Lines: 3, More: 1, Bridge: credit.Bridge{Old: 100, New: 300, Exposure: 200,
			Movers: []credit.Mover{{Account: "A-1", Change: 150, Cause: "exposure"}, {Account: "A-2", Change: 50, Cause: "exposure"}}},
			Names: map[string]string{"A-1": "Westbridge", "A-2": "Northgate"}}}
	p, err := digestMail(c, digest.Links{Public: "https://credit.example.test", Unsubscribe: "https://credit.example.test/digest/unsubscribe?t=x"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Subject != "CreditDash digest, Nov 30, 2026" {
		t.Errorf("subject %q", p.Subject)
	}
	for name, part := range map[string]string{"text": p.Text, "HTML": p.HTML} {
		for _, want := range []string{"and 150 more", "and 1 more", "https://credit.example.test/businesses/1001",
			"Risk below 5 on business 1001", "Account A-1, Westbridge: +1.50 (exposure)", "/digest/unsubscribe?t=x"} {
			if !strings.Contains(part, want) {
				t.Errorf("%s part lacks %q:\n%.800s", name, want, part)
			}
		}
		if strings.Contains(part, "Northgate") {
			t.Errorf("%s part shows a bridge line the digest left out", name)
		}
	}
	if n := strings.Count(p.Text, "\n- "); n != 2+3+3 {
		t.Errorf("text part has %d item lines, want 8 (2 alerts, 3 bridge lines, 3 \"and N more\")", n)
	}

	v, err := verifyMail(digest.Verification{User: "demo", Link: "https://credit.example.test/digest/verify?t=y", Hours: 24})
	if err != nil || !strings.Contains(v.Text, "within 24 hours: https://credit.example.test/digest/verify?t=y") ||
		!strings.Contains(v.HTML, `href="https://credit.example.test/digest/verify?t=y"`) {
		t.Fatalf("verification mail: %v\n%s\n%s", err, v.Text, v.HTML)
	}
}
