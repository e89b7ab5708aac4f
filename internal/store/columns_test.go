package store

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestAccountColumns: an analyst's column choice is theirs alone, kept in
// order, cleared back to the defaults, refused when it is not a list of
// column names, and gone with their workspace; on both engines.
func TestAccountColumns(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		alice, bob := Analyst{Service: "https://svc", User: "alice"}, Analyst{Service: "https://svc", User: "bob"}
		if got, err := s.AccountColumns(ctx, alice); err != nil || got != nil {
			t.Fatalf("before any choice: %v, %v; want nil (the defaults)", got, err)
		}
		want := []string{"risk", "balance", "over_90"}
		must(t, s.SetAccountColumns(ctx, alice, want))
		if got, err := s.AccountColumns(ctx, alice); err != nil || !slices.Equal(got, want) {
			t.Errorf("after choosing: %v, %v; want %v", got, err, want)
		}
		if got, _ := s.AccountColumns(ctx, bob); got != nil {
			t.Errorf("bob sees alice's choice: %v", got)
		}
		for _, bad := range [][]string{{"risk,el"}, {""}, {"Risk"}, {strings.Repeat("a", 33)}, slices.Repeat([]string{"el"}, MaxColumns+1)} {
			var v *ValidationError
			if err := s.SetAccountColumns(ctx, alice, bad); !errors.As(err, &v) || v.Field != "columns" {
				t.Errorf("SetAccountColumns(%.40q) = %v, want a ValidationError on columns", bad, err)
			}
		}
		if got, _ := s.AccountColumns(ctx, alice); !slices.Equal(got, want) {
			t.Errorf("a refused choice changed the kept one: %v", got)
		}
		must(t, s.SetAccountColumns(ctx, alice, nil))
		if got, _ := s.AccountColumns(ctx, alice); got != nil {
			t.Errorf("after going back to the defaults: %v", got)
		}
		must(t, s.SetAccountColumns(ctx, alice, want))
		must(t, s.DeleteAnalyst(ctx, alice))
		if got, _ := s.AccountColumns(ctx, alice); got != nil {
			t.Errorf("after deleting the workspace: %v", got)
		}
	})
}
