package store

import (
	"path/filepath"
	"sync"
	"time"
)

// A warm page needs the team's version before anything else (every kept
// figure, tile and page is keyed by it), and asking the database for that
// one row was about a third of a warm report's time. So each process keeps
// the versions it has seen in a teamBook and believes them while nothing
// can have moved them unseen:
//   - on SQLite the process owns the file (several replicas share
//     PostgreSQL), so every write passes through this process, and every
//     store opened on the same file in it shares one book; should a second
//     process write to the file all the same, what it wrote shows within
//     sqliteBelief, as a version read is believed no longer;
//   - on PostgreSQL each store listens for the versions other replicas
//     commit (NOTIFY, sent by the write's own transaction, team_listen.go)
//     and believes its book only while that connection is up; while it is
//     down every read asks the database, and on its return the book starts
//     empty, since what was missed is unknown.
//
// Versions only move forward, so the book keeps the larger of what it
// knows and what it hears, whichever arrives first.

// sqliteBelief is how long a SQLite book believes a version it read:
// nothing tells it of another process's writes.
const sqliteBelief = 2 * time.Second

// maxBookTeams bounds a book: a deployment serves one team per service,
// so past this many something is wrong, and the book starts again.
const maxBookTeams = 1024

// teamBook is the team versions one process believes.
type teamBook struct {
	mu sync.RWMutex
	// live is whether the book may be believed; era moves whenever live
	// does, so a read that began before a change is not kept after it.
	live     bool
	era      uint64
	versions map[string]booked
	// belief bounds how long a version is believed; 0: while live.
	belief time.Duration
}

// booked is a version and when the book learned it.
type booked struct {
	v  int64
	at time.Time
}

func newTeamBook(live bool, belief time.Duration) *teamBook {
	return &teamBook{live: live, belief: belief, versions: map[string]booked{}}
}

// get is the team's version as believed here, and the era it was asked
// in (for learn); ok is false when the database must be asked.
func (b *teamBook) get(service string) (v int64, era uint64, ok bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if !b.live {
		return 0, b.era, false
	}
	e, ok := b.versions[service]
	if ok && b.belief > 0 && time.Since(e.at) >= b.belief {
		return 0, b.era, false
	}
	return e.v, b.era, ok
}

// learn keeps a version read from the database in era, unless the book
// stopped being believed or started again since.
func (b *teamBook) learn(service string, v int64, era uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.live && b.era == era {
		b.keep(service, v)
	}
}

// moved records a version a write committed, here or on another replica.
func (b *teamBook) moved(service string, v int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.live {
		b.keep(service, v)
	}
}

// keep records v unless a later version is known; b.mu is held.
func (b *teamBook) keep(service string, v int64) {
	now := time.Now()
	if old, ok := b.versions[service]; ok && old.v >= v {
		if old.v == v {
			b.versions[service] = booked{v: v, at: now} // confirmed
		}
		return
	}
	if len(b.versions) >= maxBookTeams {
		clear(b.versions)
	}
	b.versions[service] = booked{v: v, at: now}
}

// setLive starts the book again, empty, believed or not.
func (b *teamBook) setLive(live bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.live = live
	b.era++
	clear(b.versions)
}

// sqliteBooks are the books of this process's SQLite files, by path, so
// every store opened on one file sees the others' writes at once; a book
// goes when the last store on its file closes.
var sqliteBooks = struct {
	sync.Mutex
	byPath map[string]*sharedBook
}{byPath: map[string]*sharedBook{}}

// sharedBook is a file's book and how many open stores use it.
type sharedBook struct {
	book  *teamBook
	users int
}

// sqliteBook is the book of the SQLite file at path, and the function
// that gives it back when the store closes.
func sqliteBook(path string) (*teamBook, func()) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	sqliteBooks.Lock()
	defer sqliteBooks.Unlock()
	sb, ok := sqliteBooks.byPath[path]
	if !ok {
		sb = &sharedBook{book: newTeamBook(true, sqliteBelief)}
		sqliteBooks.byPath[path] = sb
	}
	sb.users++
	return sb.book, func() {
		sqliteBooks.Lock()
		defer sqliteBooks.Unlock()
		if sb.users--; sb.users == 0 {
			delete(sqliteBooks.byPath, path)
		}
	}
}
