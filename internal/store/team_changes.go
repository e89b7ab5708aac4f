package store

import (
	"slices"
	"sync"
)

// What a team write touched of the accounts' figures (the record, the
// newest ledger's lines, limits, saved inputs, defaults, known scores),
// so the handlers can work out again only the accounts it touched instead
// of all 50,000. Each write this process commits is logged with the
// version it moved the team from and to, read inside its transaction; a
// caller holding figures of version `from` asks for what moved between
// from and the version now, and gets an answer only when the log links
// the two without a gap. A write this process did not make (another
// replica, another process on the file), a write that did not say what it
// touched, and anything the bound has dropped leave a gap: the caller then
// works everything out again, as it always did.

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
	Accounts []string
	// Businesses are businesses whose known scores or defaults changed:
	// every account linked to one is touched.
	Businesses []int32
	// All is a write that may have changed any account (an import, a
	// restore, the loss given default), or that did not say.
	All bool
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

// loggedChange is one committed write: the version it moved the team
// from and what it touched.
type loggedChange struct {
	prev    int64
	touched Touched
}

// changeLog is every team's last writes by the version they committed.
type changeLog struct {
	mu    sync.Mutex
	teams map[string]map[int64]loggedChange
}

func newChangeLog() *changeLog { return &changeLog{teams: map[string]map[int64]loggedChange{}} }

// add logs a committed write from prev to v; the oldest entries go past
// the bound (the map's smallest versions).
func (l *changeLog) add(service string, prev, v int64, t *Touched) {
	l.mu.Lock()
	defer l.mu.Unlock()
	log := l.teams[service]
	if log == nil {
		if len(l.teams) >= maxBookTeams {
			clear(l.teams)
		}
		log = map[int64]loggedChange{}
		l.teams[service] = log
	}
	c := loggedChange{prev: prev, touched: Touched{All: true}}
	if t != nil && !t.All && t.size() <= maxTouched {
		c.touched = Touched{Accounts: slices.Clone(t.Accounts), Businesses: slices.Clone(t.Businesses)}
	}
	log[v] = c
	if len(log) > maxLoggedChanges {
		oldest := v
		for k := range log {
			oldest = min(oldest, k)
		}
		delete(log, oldest)
	}
}

// since is what moved from version from to version to, walked back from
// to; ok is false when the log cannot link them or a write touched all.
func (l *changeLog) since(service string, from, to int64) (Touched, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out Touched
	if from > to {
		return out, false
	}
	log := l.teams[service]
	accounts, businesses := map[string]bool{}, map[int32]bool{}
	for v := to; v != from; {
		c, ok := log[v]
		if !ok || c.touched.All || c.prev >= v {
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

// TeamChanges is what the team's writes touched between versions from
// and to (from < to, both read from TeamVersion); ok is false when this
// process cannot tell (see above), and the caller must work out every
// account again. from == to touches nothing.
func (s *Store) TeamChanges(a Analyst, from, to int64) (Touched, bool) {
	a, err := team(a)
	if err != nil {
		return Touched{}, false
	}
	return s.changes.since(a.Service, from, to)
}
