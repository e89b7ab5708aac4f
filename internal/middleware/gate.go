package middleware

import (
	"context"
	"sync"
	"time"
)

// Gate bounds work that costs much while it runs (a download building
// every account's figures, a file being read): at most PerKey at once for
// one key (an analyst) and PerGroup for a group of keys (a team, or
// everyone with group ""). One past a bound is refused at once rather
// than queued, so it holds no memory while it waits. An entry lives only
// while its work runs, so the maps hold at most what is running.
type Gate struct {
	PerKey, PerGroup int
	mu               sync.Mutex
	keys, groups     map[string]int
}

// Full names the bound that refused a turn.
type Full int

// The bounds a Gate refuses by.
const (
	NotFull   Full = iota // a turn was given
	KeyFull               // the key's own bound is reached
	GroupFull             // its group's bound is reached
)

// Enter takes a turn for key in group, or says which bound is reached;
// leave gives the turn back.
func (g *Gate) Enter(group, key string) (leave func(), full Full) {
	k := group + "\x00" + key
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.keys[k] >= g.PerKey:
		return nil, KeyFull
	case g.groups[group] >= g.PerGroup:
		return nil, GroupFull
	}
	if g.keys == nil {
		g.keys, g.groups = map[string]int{}, map[string]int{}
	}
	g.keys[k]++
	g.groups[group]++
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.keys[k]--; g.keys[k] <= 0 {
			delete(g.keys, k)
		}
		if g.groups[group]--; g.groups[group] <= 0 {
			delete(g.groups, group)
		}
	}, NotFull
}

// Running is how many keys and groups have work running (for tests that
// check nothing is kept once it ends).
func (g *Gate) Running() (keys, groups int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.keys), len(g.groups)
}

// FirstReadDeadline is parent with a deadline d counted from the first
// time a read asks for it (its Done, Deadline, Err or a value; deriving a
// context asks for Done and a value, so a derived one is cancelled with
// it as with any context of the standard library's own). A page's reads
// of a database share it: one that stops answering costs the page d, not
// d per read, and a page answered in process never starts the timer.
func FirstReadDeadline(parent context.Context, d time.Duration) context.Context {
	return &firstReadDeadline{parent: parent, d: d}
}

type firstReadDeadline struct {
	parent context.Context
	d      time.Duration
	once   sync.Once
	ctx    context.Context
}

func (f *firstReadDeadline) started() context.Context {
	f.once.Do(func() {
		ctx, cancel := context.WithTimeout(f.parent, f.d)
		// Released with the request at the latest.
		context.AfterFunc(f.parent, cancel)
		f.ctx = ctx
	})
	return f.ctx
}

// Deadline is the deadline, set now if no read has set it yet.
func (f *firstReadDeadline) Deadline() (time.Time, bool) { return f.started().Deadline() }

// Done is closed at the deadline or when the request ends.
func (f *firstReadDeadline) Done() <-chan struct{} { return f.started().Done() }

// Err says why Done is closed.
func (f *firstReadDeadline) Err() error { return f.started().Err() }

// Value is the request's value for key.
func (f *firstReadDeadline) Value(key any) any { return f.started().Value(key) }
