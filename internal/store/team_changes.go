package store

import (
	"context"
	"database/sql"
	"encoding/json"
)

// What a team write touched of the accounts' figures (the record, the
// newest ledger's lines, limits, saved inputs, defaults, known scores),
// so the handlers can work out again only the accounts it touched instead
// of all 50,000. Each write records it in team_changes inside its own
// transaction, under the version it moved the team to and with the
// version it moved it from, so every replica (and every process on a
// SQLite file) reads the same log: a caller holding figures of version
// `from` asks for what moved between from and the version now, and gets
// an answer only when the log links the two without a gap. A write that
// did not say what it touched, or named more than maxTouched, is logged as
// touching everything; the oldest entries go past the bound. Either
// leaves a gap, and the caller then works everything out again.

// maxLoggedChanges bounds each team's log: a caller further behind than
// this many writes works everything out again.
const maxLoggedChanges = 256

// maxTouched is how many accounts and businesses a write may name before
// the log treats it as touching everything: past it, working out every
// account is about as cheap and much simpler.
const maxTouched = 1000

// Touched is what team writes changed of the accounts' figures.
type Touched struct {
	// Accounts are account keys whose record, line, limit or inputs
	// changed (an account new to the record included).
	Accounts []string `json:"a,omitempty"`
	// Businesses are businesses whose known scores or defaults changed:
	// every account linked to one is touched.
	Businesses []int32 `json:"b,omitempty"`
	// All is a write that may have changed any account (an import, a
	// restore, the loss given default), or that did not say.
	All bool `json:"-"`
}

// touchAll is what a write that does not say what it touched touched.
func touchAll() *Touched { return &Touched{All: true} }

// touchNone is a write that changes no account's figures (the team's
// members, policy, applications, exports' records, statement years).
func touchNone() *Touched { return &Touched{} }

// touchAccounts is a write to the named accounts.
func touchAccounts(accounts ...string) *Touched { return &Touched{Accounts: accounts} }

// touchBusinesses is a write to the named businesses' scores or defaults.
func touchBusinesses(ids ...int32) *Touched { return &Touched{Businesses: ids} }

// size is how many accounts and businesses t names.
func (t *Touched) size() int { return len(t.Accounts) + len(t.Businesses) }

// logChange records, inside the write's transaction tx, that it moved
// the team from prev to v touching t, and drops the team's entries past
// the bound. touched is NULL for a write that touched everything.
func logChange(ctx context.Context, tx *sql.Tx, service string, prev, v int64, t *Touched) error {
	var touched sql.NullString
	if t != nil && !t.All && t.size() <= maxTouched {
		b, err := json.Marshal(t)
		if err != nil {
			return err
		}
		touched = sql.NullString{String: string(b), Valid: true}
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO team_changes (service, version, prev, touched) VALUES ($1, $2, $3, $4)",
		service, v, prev, touched); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM team_changes WHERE service = $1 AND version <=
		(SELECT version FROM team_changes WHERE service = $1 ORDER BY version DESC LIMIT 1 OFFSET $2)`, service, maxLoggedChanges)
	return err
}

// loggedChange is one logged write: the version it moved the team from
// and what it touched (nil: everything).
type loggedChange struct {
	prev    int64
	touched *Touched
}

// TeamChanges is what the team's writes touched between versions from
// and to (from < to, both read from TeamVersion), written by any replica;
// ok is false when the log cannot tell (see above), and the caller must
// work out every account again. from == to touches nothing.
func (s *Store) TeamChanges(ctx context.Context, a Analyst, from, to int64) (t Touched, ok bool, err error) {
	a, err = team(a)
	if err != nil || from > to {
		return Touched{}, false, err
	}
	if from == to {
		return Touched{}, true, nil
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	rows, err := s.r.QueryContext(ctx, "SELECT version, prev, touched FROM team_changes WHERE service = $1 AND version > $2 AND version <= $3",
		a.Service, from, to)
	if err != nil {
		return Touched{}, false, wrap("team changes", err)
	}
	defer rows.Close()
	log := map[int64]loggedChange{}
	for rows.Next() {
		var (
			v       int64
			c       loggedChange
			touched sql.NullString
		)
		if err := rows.Scan(&v, &c.prev, &touched); err != nil {
			return Touched{}, false, wrap("team changes", err)
		}
		if touched.Valid {
			c.touched = new(Touched)
			if err := json.Unmarshal([]byte(touched.String), c.touched); err != nil {
				return Touched{}, false, wrap("team changes", err)
			}
		}
		log[v] = c
	}
	if err := rows.Err(); err != nil {
		return Touched{}, false, wrap("team changes", err)
	}
	t, ok = linked(log, from, to)
	return t, ok, nil
}

// linked is what moved from version from to version to, walked back
// from to through log; ok is false when the log cannot link them or a
// write touched everything.
func linked(log map[int64]loggedChange, from, to int64) (Touched, bool) {
	var out Touched
	accounts, businesses := map[string]bool{}, map[int32]bool{}
	for v := to; v != from; {
		c, ok := log[v]
		if !ok || c.touched == nil || c.prev >= v {
			return Touched{}, false
		}
		for _, a := range c.touched.Accounts {
			if !accounts[a] {
				accounts[a] = true
				out.Accounts = append(out.Accounts, a)
			}
		}
		for _, b := range c.touched.Businesses {
			if !businesses[b] {
				businesses[b] = true
				out.Businesses = append(out.Businesses, b)
			}
		}
		if out.size() > maxTouched {
			return Touched{}, false
		}
		v = c.prev
	}
	return out, true
}
