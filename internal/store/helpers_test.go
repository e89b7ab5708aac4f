package store

import (
	"database/sql"
	"errors"
	"strings"
	"testing"
)

// Two analysts of the same service and one of another service with the
// first one's user name: none of them may see another's rows.
var (
	alice     = Analyst{Service: "http://127.0.0.1:8081", User: "alice"}
	bob       = Analyst{Service: "http://127.0.0.1:8081", User: "bob"}
	aliceElse = Analyst{Service: "https://credit.example", User: "alice"}
)

// wantInvalid fails unless err is a *ValidationError on field.
func wantInvalid(t *testing.T, what string, err error, field string) {
	t.Helper()
	var v *ValidationError
	if !errors.As(err, &v) || v.Field != field {
		t.Fatalf("%s: err = %v, want a validation error on %q", what, err, field)
	}
	wantWorded(t, what, err)
}

// wantErr fails unless err is target.
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: err = %v, want %v", what, err, target)
	}
	wantWorded(t, what, err)
}

// wantWorded checks the house style of error strings.
func wantWorded(t *testing.T, what string, err error) {
	t.Helper()
	msg := err.Error()
	if !strings.HasPrefix(msg, "store: ") || strings.ToLower(msg[:8]) != msg[:8] {
		t.Errorf("%s: error %q does not start with a lowercase \"store: \"", what, msg)
	}
}

// must fails the test on err.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// rowsOf counts the analyst's rows in table straight from the database,
// beside the API, so a test sees what is really stored.
func rowsOf(t testing.TB, s *Store, a Analyst, table string) int {
	t.Helper()
	var n int
	err := s.r.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM "+table+" WHERE analyst_id = "+analystID, a.Service, a.User).Scan(&n)
	must(t, err)
	return n
}

// fill inserts n rows of table for the analyst with one statement, the
// quick way to bring a list to its bound (row by row takes seconds under
// the race detector). Rows get ids base+i and times i, older than any the
// test clock gives.
func fill(t testing.TB, s *Store, a Analyst, table string, n int) {
	t.Helper()
	columns := map[string]string{
		"watches":   "(analyst_id, business_id, name, created_at) SELECT a, 100000 + i, 'filler', i",
		"notes":     "(id, analyst_id, business_id, author, body, created_at, updated_at) SELECT base + i, a, 100000 + i, 'filler', 'filler', i, i",
		"rules":     "(id, analyst_id, scope, business_id, folder_id, target_name, score, cond, threshold, created_at) SELECT base + i, a, 'business', 100000 + i, 0, '', 'risk', 'below', 5, i",
		"last_seen": "(analyst_id, business_id, score, value, seen_at) SELECT a, 100000 + i, 'risk', 5, i",
		"snapshots": "(id, analyst_id, business_id, business_name, tab, fetched_at, created_at, size, data) SELECT base + i, a, 100000 + i, '', 'overview', i, i, 2, '{}'",
	}[table]
	if columns == "" {
		t.Fatalf("fill: no filler for %s", table)
	}
	err := s.write(t.Context(), a, "fill", func(tx *sql.Tx, id int64) error {
		_, err := tx.ExecContext(t.Context(), `WITH RECURSIVE seq (i, a, base) AS (
				SELECT 1, CAST($1 AS BIGINT), CAST($3 AS BIGINT)
				UNION ALL SELECT i + 1, a, base FROM seq WHERE i < CAST($2 AS INTEGER))
			INSERT INTO `+table+" "+columns+" FROM seq", id, n, newID()>>1)
		return err
	})
	must(t, err)
}
