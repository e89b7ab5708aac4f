package store

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"
)

// A divergence rule keeps its category and steady days, is always about
// DBT, and refuses days that are not whole or out of range and categories
// that are not SIC codes; the same rule twice is refused.
func TestDivergenceRules(t *testing.T) {
	div := func(cat string, rise, steady float64) RuleSpec {
		return RuleSpec{Scope: ScopeBusiness, BusinessID: 1008, Score: ScorePay, Condition: Divergence,
			Threshold: rise, Steady: steady, Category: cat}
	}
	bad := []struct {
		spec  RuleSpec
		field string
	}{
		{div("36", 0, 3), "threshold"},
		{div("36", 10.5, 3), "threshold"},
		{div("36", 121, 3), "threshold"},
		{div("36", 10, 0), "steady"},
		{div("36", 10, 2.5), "steady"},
		{div("3", 10, 3), "category"},
		{div("36a", 10, 3), "category"},
		{div("50650", 10, 3), "category"},
	}
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		for _, b := range bad {
			_, err := s.AddRule(ctx, alice, b.spec)
			wantInvalid(t, "AddRule", err, b.field)
		}
		if _, err := s.AddRule(ctx, alice, div("36", 12, 2)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddRule(ctx, alice, div("", 10, 3)); err != nil {
			t.Fatal(err)
		}
		_, err := s.AddRule(ctx, alice, div("36", 12, 2))
		wantInvalid(t, "AddRule twice", err, "rule")
		// A below rule with the same numbers is another rule; its
		// divergence fields are cleared.
		if _, err := s.AddRule(ctx, alice, RuleSpec{Scope: ScopeBusiness, BusinessID: 1008, Score: ScoreDBT, Condition: Above,
			Threshold: 12, Steady: 2, Category: "36"}); err != nil {
			t.Fatal(err)
		}
		rules, err := s.Rules(ctx, alice)
		if err != nil || len(rules) != 3 {
			t.Fatalf("Rules = %+v, %v; want 3", rules, err)
		}
		if r := rules[0].RuleSpec; r.Condition != Above || r.Category != "" || r.Steady != 0 {
			t.Errorf("above rule kept divergence fields: %+v", r)
		}
		if r := rules[1].RuleSpec; r.Condition != Divergence || r.Score != ScoreDBT || r.Category != "" || r.Steady != 3 || r.Threshold != 10 {
			t.Errorf("divergence rule on the analyst's category read back as %+v", r)
		}
		if r := rules[2].RuleSpec; r.Category != "36" || r.Steady != 2 || r.Threshold != 12 {
			t.Errorf("divergence rule read back as %+v", r)
		}
		if _, err := s.RecordAlerts(ctx, alice, []Triggered{{RuleID: rules[2].ID, BusinessID: 1008, Year: 2026, Month: 10, New: 30}}); err != nil {
			t.Fatal(err)
		}
		alerts, err := s.Alerts(ctx, alice, 0)
		if err != nil || len(alerts) != 1 || alerts[0].Rule.Category != "36" || alerts[0].Rule.Steady != 2 {
			t.Errorf("Alerts = %+v, %v; want the divergence rule with its category", alerts, err)
		}
	})
}

// The team's supplier category: unset, set by one analyst and seen by
// another of the team, changed, cleared, never seen by another service,
// refused when not a SIC code; each change is in the audit trail with who
// made it and the code before, and it outlives any analyst's workspace.
func TestSupplierCategory(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		get := func(a Analyst) string {
			t.Helper()
			code, err := s.SupplierCategory(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			return code
		}
		if c := get(alice); c != "" {
			t.Errorf("unset category = %q", c)
		}
		must(t, s.SetSupplierCategory(ctx, alice, "36"))
		if c := get(bob); c != "36" {
			t.Errorf("bob sees the team's category as %q, want 36", c)
		}
		must(t, s.SetSupplierCategory(ctx, bob, "5065"))
		must(t, s.SetSupplierCategory(ctx, bob, "5065")) // the same again logs nothing
		if c := get(alice); c != "5065" {
			t.Errorf("alice sees %q after bob's change, want 5065", c)
		}
		if c := get(aliceElse); c != "" {
			t.Errorf("another service sees the team's category %q", c)
		}
		wantInvalid(t, "SetSupplierCategory", s.SetSupplierCategory(ctx, alice, "electronics"), "category")
		if c := get(alice); c != "5065" {
			t.Errorf("a refused code changed the category to %q", c)
		}
		must(t, s.SetSupplierCategory(ctx, alice, ""))
		if c := get(bob); c != "" {
			t.Errorf("cleared category = %q", c)
		}
		must(t, s.SetSupplierCategory(ctx, alice, "36"))
		must(t, s.DeleteAnalyst(ctx, alice))
		if c := get(bob); c != "36" {
			t.Errorf("category after alice deleted her workspace = %q, want the team's 36", c)
		}
		var got []string
		for e, err := range s.AuditLog(ctx, alice.Service, AuditFilter{Action: AuditActionSupplierCategory}) {
			must(t, err)
			got = append(got, e.Actor+":"+e.OldValue+">"+e.NewValue)
		}
		want := "alice:>36 bob:36>5065 alice:5065> alice:>36"
		if strings.Join(got, " ") != want {
			t.Errorf("audit trail = %v, want %s", got, want)
		}
	})
}

// Migration 00011 keeps, for each team, the category its analysts set
// most recently before the setting became the team's.
func TestSupplierCategoryMigratesToTheTeam(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		dir, err := fs.Sub(migrations, "migrations")
		must(t, err)
		dialect := goose.DialectSQLite3
		if s.engine == Postgres {
			dialect = goose.DialectPostgres
		}
		p, err := goose.NewProvider(dialect, s.w, dir, goose.WithDisableGlobalRegistry(true))
		must(t, err)
		for _, a := range []Analyst{alice, bob, aliceElse} {
			must(t, s.Watch(ctx, a, 1001, "Harbor"))
		}
		_, err = p.DownTo(ctx, 10)
		must(t, err)
		for i, c := range []struct {
			a    Analyst
			code string
		}{{alice, "36"}, {bob, "50"}, {aliceElse, "73"}} {
			_, err := s.w.ExecContext(ctx, "INSERT INTO supplier_categories (analyst_id, code, updated_at) SELECT id, $1, $2 FROM analysts WHERE service = $3 AND user_name = $4",
				c.code, int64(1000+i), c.a.Service, c.a.User)
			must(t, err)
		}
		_, err = p.Up(ctx)
		must(t, err)
		for a, want := range map[Analyst]string{alice: "50", bob: "50", aliceElse: "73"} {
			if got, err := s.SupplierCategory(ctx, a); err != nil || got != want {
				t.Errorf("%s of %s after the migration: %q (%v), want %q", a.User, a.Service, got, err, want)
			}
		}
	})
}
