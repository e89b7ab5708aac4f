package store

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestAlerts: a firing is stored once per rule, business and month with
// both values, listed newest first with its rule, counted until read.
func TestAlerts(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		rule, err := s.AddRule(ctx, alice, RuleSpec{Scope: ScopePortfolio, Score: ScoreRisk, Condition: Fall, Threshold: 2})
		must(t, err)
		seven := 7.0
		feb := Triggered{RuleID: rule.ID, BusinessID: 1001, BusinessName: "Harbor Freight", Year: 2025, Month: time.February, Old: &seven, New: 4}
		mar := Triggered{RuleID: rule.ID, BusinessID: 1001, Year: 2025, Month: time.March, New: 2}
		n, err := s.RecordAlerts(ctx, alice, []Triggered{feb})
		must(t, err)
		if n != 1 {
			t.Errorf("first firing: %d new, want 1", n)
		}
		n, err = s.RecordAlerts(ctx, alice, []Triggered{feb, mar, mar})
		must(t, err)
		if n != 1 {
			t.Errorf("repeat and a new month: %d new, want 1", n)
		}
		// A rule deleted meanwhile, or someone else's, is skipped.
		n, err = s.RecordAlerts(ctx, alice, []Triggered{{RuleID: 42, BusinessID: 1001, Year: 2025, Month: 3, New: 1}})
		must(t, err)
		if n != 0 {
			t.Errorf("unknown rule: %d new, want 0", n)
		}

		alerts, err := s.Alerts(ctx, alice, 0)
		must(t, err)
		if len(alerts) != 2 || alerts[0].Month != time.March || alerts[1].Month != time.February {
			t.Fatalf("Alerts = %+v, want March then February", alerts)
		}
		a := alerts[1]
		if a.Old == nil || *a.Old != 7 || a.New != 4 || a.Year != 2025 || a.BusinessName != "Harbor Freight" ||
			a.Rule != rule.RuleSpec || !a.Unread() || a.Created.IsZero() {
			t.Errorf("February alert = %+v, want old 7, new 4, the rule, unread", a)
		}
		if alerts[0].Old != nil {
			t.Errorf("March alert old = %v, want none", *alerts[0].Old)
		}
		if limited, _ := s.Alerts(ctx, alice, 1); len(limited) != 1 || limited[0].ID != alerts[0].ID {
			t.Errorf("Alerts(limit 1) = %+v, want the newest", limited)
		}

		wantUnread(t, s, 2)
		must(t, s.MarkAlertRead(ctx, alice, a.ID))
		must(t, s.MarkAlertRead(ctx, alice, a.ID))
		wantUnread(t, s, 1)
		wantErr(t, "mark unknown", s.MarkAlertRead(ctx, alice, 42), ErrNotFound)
		marked, err := s.MarkAllAlertsRead(ctx, alice, time.Time{})
		must(t, err)
		if marked != 1 {
			t.Errorf("MarkAllAlertsRead marked %d, want 1", marked)
		}
		wantUnread(t, s, 0)
		alerts, _ = s.Alerts(ctx, alice, 0)
		if alerts[0].Unread() || alerts[1].Read.IsZero() {
			t.Errorf("after marking all read: %+v", alerts)
		}
	})
}

// TestAlertsInput: one bad firing refuses the whole batch.
func TestAlertsInput(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		rule, err := s.AddRule(ctx, alice, RuleSpec{Scope: ScopePortfolio, Score: ScoreZ, Condition: WorseZone})
		must(t, err)
		good := Triggered{RuleID: rule.ID, BusinessID: 1001, Year: 2025, Month: 1, New: 1}
		for field, bad := range map[string]Triggered{
			"month":    {RuleID: rule.ID, BusinessID: 1001, Year: 2025, Month: 13, New: 1},
			"business": {RuleID: rule.ID, BusinessID: 0, Year: 2025, Month: 1, New: 1},
		} {
			_, err := s.RecordAlerts(ctx, alice, []Triggered{good, bad})
			wantInvalid(t, "RecordAlerts", err, field)
		}
		if n := rowsOf(t, s, alice, "alerts"); n != 0 {
			t.Errorf("%d alerts stored from refused batches", n)
		}
		// A name from the service the store would not keep as it is is
		// tidied, never the reason a batch is lost.
		long := Triggered{RuleID: rule.ID, BusinessID: 1002, BusinessName: " Acme\x00 " + strings.Repeat("é", maxNameLen), Year: 2025, Month: 1, New: 1}
		odd := Triggered{RuleID: rule.ID, BusinessID: 1003, BusinessName: "Bad \xff bytes", Year: 2025, Month: 1, New: 1}
		n, err := s.RecordAlerts(ctx, alice, []Triggered{good, long, odd})
		must(t, err)
		list, err := s.Alerts(ctx, alice, 10)
		must(t, err)
		names := map[int32]string{}
		for _, a := range list {
			names[a.BusinessID] = a.BusinessName
		}
		if got := names[1002]; n != 3 || utf8.RuneCountInString(got) != maxNameLen || !strings.HasPrefix(got, "Acme éé") || !strings.HasSuffix(got, "é…") {
			t.Errorf("%d alerts stored; long name kept as %q (%d characters), want 3 stored, cut to %d ending in an ellipsis",
				n, got, utf8.RuneCountInString(got), maxNameLen)
		}
		if got := names[1003]; got != "Bad \uFFFD bytes" {
			t.Errorf("name with a stray byte kept as %q", got)
		}
	})
}

// TestAlertsBound: past MaxAlerts the oldest alerts go.
func TestAlertsBound(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		rule, err := s.AddRule(ctx, alice, RuleSpec{Scope: ScopePortfolio, Score: ScoreRisk, Condition: WorseZone})
		must(t, err)
		batch := make([]Triggered, 0, 100)
		for i := range 100 {
			batch = append(batch, Triggered{RuleID: rule.ID, BusinessID: int32(1001 + i), Year: 2025, Month: 1, New: 3})
		}
		n, err := s.RecordAlerts(ctx, alice, batch)
		must(t, err)
		if n != len(batch) {
			t.Fatalf("stored %d, want %d", n, len(batch))
		}
		// The rest up to the bound, older than the batch.
		_, err = s.w.ExecContext(ctx, `WITH RECURSIVE seq (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < CAST($3 AS INTEGER))
			INSERT INTO alerts (id, analyst_id, rule_id, business_id, business_name, month, new_value, created_at)
			SELECT CAST($1 AS BIGINT) + i, analyst_id, id, 200000 + i, '', 202412, 3, i FROM rules, seq WHERE id = CAST($2 AS BIGINT)`,
			newID()>>1, rule.ID, MaxAlerts-len(batch))
		must(t, err)
		_, err = s.RecordAlerts(ctx, alice, []Triggered{{RuleID: rule.ID, BusinessID: 1001, Year: 2025, Month: 2, New: 2}})
		must(t, err)
		if n := rowsOf(t, s, alice, "alerts"); n != MaxAlerts {
			t.Errorf("%d alerts kept, want %d", n, MaxAlerts)
		}
		newest, err := s.Alerts(ctx, alice, 1)
		must(t, err)
		if len(newest) != 1 || newest[0].Month != time.February {
			t.Errorf("newest alert = %+v, want the February one kept", newest)
		}
	})
}

// wantUnread checks alice's unread count.
func wantUnread(t *testing.T, s *Store, want int) {
	t.Helper()
	g, err := s.Glance(t.Context(), alice)
	must(t, err)
	if g.Unread != want {
		t.Errorf("Glance().Unread = %d, want %d", g.Unread, want)
	}
}
