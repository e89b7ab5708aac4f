package store

import "testing"

// TestEditRule: a rule changes in place (same id and creation time), its
// old alerts go, the change is checked as a new rule is, and another
// analyst's rule, or one that would duplicate another, is refused.
func TestEditRule(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		first, err := s.AddRule(ctx, alice, RuleSpec{Scope: ScopeBusiness, BusinessID: 1001, TargetName: "Harbor Freight", Score: ScoreRisk, Condition: Below, Threshold: 4})
		must(t, err)
		other, err := s.AddRule(ctx, alice, RuleSpec{Scope: ScopeBusiness, BusinessID: 1002, Score: ScorePay, Condition: Below, Threshold: 5})
		must(t, err)
		_, err = s.RecordAlerts(ctx, alice, []Triggered{{RuleID: first.ID, BusinessID: 1001, Year: 2026, Month: 9, New: 3},
			{RuleID: other.ID, BusinessID: 1002, Year: 2026, Month: 9, New: 4}})
		must(t, err)

		edited, err := s.EditRule(ctx, alice, first.ID, RuleSpec{Scope: ScopeBusiness, BusinessID: 1001, TargetName: "Harbor Freight", Score: ScoreRisk, Condition: Below, Threshold: 3, FolderID: 9})
		must(t, err)
		if edited.ID != first.ID || !edited.Created.Equal(first.Created) || edited.Threshold != 3 || edited.FolderID != 0 {
			t.Errorf("edited = %+v, want %d created %v, threshold 3, no folder", edited, first.ID, first.Created)
		}
		rules, err := s.Rules(ctx, alice)
		must(t, err)
		if len(rules) != 2 || rules[1] != edited {
			t.Errorf("Rules = %+v, want the edited rule in place of the first", rules)
		}
		alerts, err := s.Alerts(ctx, alice, 10)
		must(t, err)
		if len(alerts) != 1 || alerts[0].RuleID != other.ID {
			t.Errorf("alerts after the edit = %+v, want only the other rule's", alerts)
		}

		wantInvalid(t, "threshold out of range", errOnly(s.EditRule(ctx, alice, first.ID, RuleSpec{Scope: ScopeBusiness, BusinessID: 1001, Score: ScoreRisk, Condition: Below, Threshold: 11})), "threshold")
		wantInvalid(t, "a duplicate of the other rule", errOnly(s.EditRule(ctx, alice, first.ID, other.RuleSpec)), "rule")
		wantErr(t, "bob edits alice's rule", errOnly(s.EditRule(ctx, bob, first.ID, edited.RuleSpec)), ErrNotFound)
		wantErr(t, "no such rule", errOnly(s.EditRule(ctx, alice, 12345, edited.RuleSpec)), ErrNotFound)
		// Saving a rule unchanged is no duplicate of itself.
		must(t, errOnly(s.EditRule(ctx, alice, first.ID, edited.RuleSpec)))
	})
}

func errOnly(_ Rule, err error) error { return err }
