package store

import (
	"testing"
	"time"
)

// An import's owner passes the same user-name check as an owner assigned
// on the worklist: the store refuses a line whose owner is not one.
func TestImportOwnerIsAUserName(t *testing.T) {
	s := openTest(t, SQLite, Config{})
	for _, owner := range []string{"Jane Doe", "=cmd|' /C calc'!A0", "a\nb"} {
		_, err := s.ImportLedger(t.Context(), alice, ImportSpec{AsOf: time.Date(2026, 9, 30, 0, 0, 0, 0, time.UTC), File: "x.csv",
			Lines: []LedgerLine{{Account: "A-1", BusinessID: 1001, Balance: 10, Current: 10, Owner: owner}}})
		wantInvalid(t, "owner "+owner, err, "owner")
	}
	if _, err := s.ImportLedger(t.Context(), alice, ImportSpec{AsOf: time.Date(2026, 9, 30, 0, 0, 0, 0, time.UTC), File: "x.csv",
		Lines: []LedgerLine{{Account: "A-1", BusinessID: 1001, Balance: 10, Current: 10, Owner: "jane.doe@example.com"}}}); err != nil {
		t.Errorf("a user name as owner: %v", err)
	}
	for _, name := range []string{"bob", "jane.doe@example.com", "a_b-c+d"} {
		if !ValidUserName(name) {
			t.Errorf("ValidUserName(%q) = false", name)
		}
	}
}
