package session

import (
	"context"
	"time"

	"github.com/maypok86/otter/v2"
)

// SignOuts remembers when each user last signed out, so that a session
// cookie copied before the sign-out is refused afterwards: a cookie is
// only as good as its sign-in time is later than the user's last sign-out.
// Replicas share one through the shared store; alone, the memory one does.
type SignOuts interface {
	// SignedOut reports when user last signed out; ok is false if not
	// within the session lifetime.
	SignedOut(ctx context.Context, user string) (at time.Time, ok bool)
	// MarkSignedOut notes that user signed out at.
	MarkSignedOut(ctx context.Context, user string, at time.Time) error
}

// maxSignOuts bounds the users the memory book remembers. Past it the
// oldest marks go first; a forgotten mark re-opens only cookies older than
// it, which the lifetime of the cookie bounds anyway.
const maxSignOuts = 200_000

// memorySignOuts keeps sign-out marks in this process for as long as a
// session can live.
type memorySignOuts struct {
	marks *otter.Cache[string, time.Time]
}

// NewMemorySignOuts keeps sign-out marks in memory for lifetime, the
// longest a session cookie lasts.
func NewMemorySignOuts(lifetime time.Duration) SignOuts {
	return &memorySignOuts{marks: otter.Must(&otter.Options[string, time.Time]{
		MaximumSize:      maxSignOuts,
		ExpiryCalculator: otter.ExpiryWriting[string, time.Time](lifetime),
	})}
}

func (m *memorySignOuts) SignedOut(_ context.Context, user string) (time.Time, bool) {
	return m.marks.GetIfPresent(user)
}

func (m *memorySignOuts) MarkSignedOut(_ context.Context, user string, at time.Time) error {
	m.marks.Set(user, at)
	return nil
}

// SignInTime is the sign-in time a new session of user records: now, but
// always after the user's last sign-out, which must not refuse the session
// that follows it, however fast (cookies keep milliseconds).
func SignInTime(ctx context.Context, signOuts SignOuts, now time.Time, user string) time.Time {
	at := now.Truncate(time.Millisecond)
	if out, ok := signOuts.SignedOut(ctx, user); ok && !at.After(out) {
		at = out.Truncate(time.Millisecond).Add(time.Millisecond)
	}
	return at
}
