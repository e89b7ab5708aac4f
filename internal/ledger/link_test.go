package ledger

import (
	"testing"

	"creditdash/internal/store"
)

// TestNameKey: case, punctuation and legal forms do not tell companies
// apart.
func TestNameKey(t *testing.T) {
	for in, want := range map[string]string{"The Cannon Group, PLC": "cannon group", "ACME INC.": "acme", "Acme, Inc": "acme",
		"Müller GmbH": "müller", "Smith & Sons Ltd": "smith and sons", "Co": "co", "Amy's Bird Sanctuary": "amy s bird sanctuary"} {
		if got := NameKey(in); got != want {
			t.Errorf("NameKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLinkByName: a name of one known business links; a name of two, or
// of none, stays not linked; a line the file links keeps its link.
func TestLinkByName(t *testing.T) {
	known := []Known{{"Harbor Freight Inc", 1001}, {"Twin Co", 1002}, {"Twin Corp.", 1003}, {"Harbor Freight", 1001}}
	lines := []store.LedgerLine{{Account: "a", Name: "HARBOR FREIGHT, INC."}, {Account: "b", Name: "Twin"}, {Account: "c", Name: "Nobody"},
		{Account: "d", Name: "Harbor Freight", CustomerID: "X1"}}
	linked, ambiguous := LinkByName(lines, known)
	if linked != 1 || ambiguous != 1 || lines[0].BusinessID != 1001 || lines[1].BusinessID != 0 || lines[2].BusinessID != 0 || lines[3].BusinessID != 0 {
		t.Errorf("linked %d, ambiguous %d, lines %+v", linked, ambiguous, lines)
	}
}
