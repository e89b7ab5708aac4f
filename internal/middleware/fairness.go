// Package middleware is the dashboard's HTTP plumbing beside its pages:
// pages taking turns (admission), fair shares of the service, bounds on
// costly work (Gate) and a page's shared workspace deadline, the page
// cache and its kept-first path, a page's calls under way (RunSections),
// the request log with its clipped values and redacted names, security
// headers, the client's address and safe return paths. It knows nothing
// of views, the store or templates: callers hand it keys, users and pages.
package middleware

import (
	"context"
	"sync"
)

// UserSlots bounds what each user runs at once (a fair share of the
// service: however many pages and exports one user opens at once, they
// hold at most limit of what is bounded, so one user cannot starve the
// others). An entry lives only while
// it is in use, so the map is bounded by the requests in flight.
type UserSlots struct {
	limit int
	mu    sync.Mutex
	users map[string]*slots
}

type slots struct {
	free chan struct{}
	refs int
}

// NewUserSlots bounds each user to limit slots at once.
func NewUserSlots(limit int) *UserSlots {
	return &UserSlots{limit: limit, users: map[string]*slots{}}
}

func (u *UserSlots) enter(user string) *slots {
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

func (u *UserSlots) leave(user string, s *slots) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if s.refs--; s.refs == 0 {
		delete(u.users, user)
	}
}

// Acquire waits for one of user's slots, or gives up with ctx.
func (u *UserSlots) Acquire(ctx context.Context, user string) (release func(), err error) {
	s := u.enter(user)
	select {
	case s.free <- struct{}{}:
		return func() { <-s.free; u.leave(user, s) }, nil
	case <-ctx.Done():
		u.leave(user, s)
		return nil, ctx.Err()
	}
}

// TryAcquire takes one of user's slots if one is free at once.
func (u *UserSlots) TryAcquire(user string) (release func(), ok bool) {
	s := u.enter(user)
	select {
	case s.free <- struct{}{}:
		return func() { <-s.free; u.leave(user, s) }, true
	default:
		u.leave(user, s)
		return nil, false
	}
}

// Full reports whether all of user's slots are taken.
func (u *UserSlots) Full(user string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	s := u.users[user]
	return s != nil && len(s.free) == u.limit
}

// InUse is how many users hold or wait for slots.
func (u *UserSlots) InUse() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.users)
}
