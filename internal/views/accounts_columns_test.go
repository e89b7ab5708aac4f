package views

import (
	"slices"
	"testing"
)

// TestAccountColumns: a choice is applied in the table's order; names no
// column has are dropped; a choice left with no column, or none made,
// shows the defaults.
func TestAccountColumns(t *testing.T) {
	shown := func(cs AccountColumns) []string {
		var out []string
		for _, c := range cs {
			if c.Shown {
				out = append(out, c.Key)
			}
		}
		return out
	}
	for _, tc := range []struct {
		chosen, want []string
		isDefault    bool
	}{
		{nil, DefaultAccountColumns, true},
		{[]string{"gone_column"}, DefaultAccountColumns, true},
		{[]string{ColOwner, ColCurrent, "gone_column", ColCurrent}, []string{ColCurrent, ColOwner}, false},
	} {
		cs := NewAccountColumns(tc.chosen)
		if got := shown(cs); !slices.Equal(got, tc.want) || cs.Default() != tc.isDefault {
			t.Errorf("NewAccountColumns(%q) shows %q (default %v), want %q (%v)", tc.chosen, got, cs.Default(), tc.want, tc.isDefault)
		}
		if len(cs) != len(accountColumns) {
			t.Errorf("NewAccountColumns(%q) offers %d columns, want all %d", tc.chosen, len(cs), len(accountColumns))
		}
	}
	if got := KnownAccountColumns([]string{ColPD, "x", ColBalance}); !slices.Equal(got, []string{ColBalance, ColPD}) {
		t.Errorf("KnownAccountColumns = %q", got)
	}
}
