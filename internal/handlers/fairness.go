package handlers

import (
	"context"
	"sync"
)

// Fair shares of the service: however many pages and exports one user
// opens at once, they hold at most these many of the service connections
// (256), so one user cannot starve the others. Eight is one page's calls
// at once: a single page never waits on its own user's share.
const (
	callsPerUser   = maxParallel
	exportsPerUser = 2
)

// userSlots bounds what each user runs at once. An entry lives only while
// it is in use, so the map is bounded by the requests in flight.
type userSlots struct {
	limit int
	mu    sync.Mutex
	users map[string]*slots
}

type slots struct {
	free chan struct{}
	refs int
}

func newUserSlots(limit int) *userSlots {
	return &userSlots{limit: limit, users: map[string]*slots{}}
}

func (u *userSlots) enter(user string) *slots {
	u.mu.Lock()
	defer u.mu.Unlock()
	s := u.users[user]
	if s == nil {
		s = &slots{free: make(chan struct{}, u.limit)}
		u.users[user] = s
	}
	s.refs++
	return s
}

func (u *userSlots) leave(user string, s *slots) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if s.refs--; s.refs == 0 {
		delete(u.users, user)
	}
}

// acquire waits for one of user's slots, or gives up with ctx.
func (u *userSlots) acquire(ctx context.Context, user string) (release func(), err error) {
	s := u.enter(user)
	select {
	case s.free <- struct{}{}:
		return func() { <-s.free; u.leave(user, s) }, nil
	case <-ctx.Done():
		u.leave(user, s)
		return nil, ctx.Err()
	}
}

// tryAcquire takes one of user's slots if one is free at once.
func (u *userSlots) tryAcquire(user string) (release func(), ok bool) {
	s := u.enter(user)
	select {
	case s.free <- struct{}{}:
		return func() { <-s.free; u.leave(user, s) }, true
	default:
		u.leave(user, s)
		return nil, false
	}
}

// full reports whether all of user's slots are taken.
func (u *userSlots) full(user string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	s := u.users[user]
	return s != nil && len(s.free) == u.limit
}

// inUse is how many users hold or wait for slots, for tests.
func (u *userSlots) inUse() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.users)
}
