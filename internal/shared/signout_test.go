package shared_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/redis/rueidis"

	"creditdash/internal/shared"
	"creditdash/internal/shared/redistest"
)

// signOutReplicas are two replicas' sign-out books on one server.
func signOutReplicas(t *testing.T, url, prefix string, lifetime time.Duration) (a, b *shared.SignOuts) {
	t.Helper()
	open := func() *shared.SignOuts {
		st, err := shared.Open(url, shared.Options{Prefix: prefix, ProbeEvery: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(st.Close)
		return shared.NewSignOuts(st, &memMarks{m: map[string]time.Time{}}, lifetime)
	}
	return open(), open()
}

// A sign-out taken while the store is down holds on its replica and, once
// the store is back, on the others too: a cookie copied before it does not
// open pages elsewhere for the rest of the session's life.
func TestSignOutDuringAnOutageReachesTheOthersOnReturn(t *testing.T) {
	srv := redistest.Start(t)
	a, b := signOutReplicas(t, srv.URL(), redistest.Prefix(t), time.Hour)
	ctx := context.Background()
	srv.Stop()
	at := time.Now().Truncate(time.Millisecond)
	if err := a.MarkSignedOut(ctx, "developer", at); err == nil {
		t.Fatal("the mark reached a stopped store")
	}
	if got, ok := a.SignedOut(ctx, "developer"); !ok || !got.Equal(at) {
		t.Errorf("A's own mark during the outage: %v %v", got, ok)
	}
	srv.Resume()
	eventually(t, "B sees the mark A took during the outage", func() bool {
		a.SignedOut(ctx, "demo") // A's requests go on; A learns the store is back
		got, ok := b.SignedOut(ctx, "developer")
		return ok && got.Equal(at)
	})
}

// The marks are kept where an eviction policy for keys with a lifetime
// (volatile-lru) cannot take them, and marks older than a session go on
// the next write.
func TestSignOutMarksOutlastEvictionAndAreTrimmed(t *testing.T) {
	url, prefix := redistest.URL(t), redistest.Prefix(t)
	a, _ := signOutReplicas(t, url, prefix, time.Minute)
	_, short := signOutReplicas(t, url, prefix, 10*time.Second)
	ctx := context.Background()
	if err := a.MarkSignedOut(ctx, "ordinary", time.Now().Add(-30*time.Second)); err != nil {
		t.Fatal(err)
	}
	admin, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{strings.TrimSuffix(strings.TrimPrefix(url, "redis://"), "/0")}, DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	keys, err := admin.Do(ctx, admin.B().Keys().Pattern(prefix+"so:*").Build()).AsStrSlice()
	if err != nil || len(keys) != 1 {
		t.Fatalf("sign-out keys %q (%v), want one", keys, err)
	}
	if ttl, err := admin.Do(ctx, admin.B().Pttl().Key(keys[0]).Build()).AsInt64(); err != nil || ttl != -1 {
		t.Errorf("the marks' key has a lifetime (PTTL %d, %v): volatile-lru may evict it", ttl, err)
	}
	// A replica whose sessions last 10 s writes: the 30-second-old mark
	// can refuse no cookie of it and goes.
	now := time.Now().Truncate(time.Millisecond)
	if err := short.MarkSignedOut(ctx, "demo", now); err != nil {
		t.Fatal(err)
	}
	members, err := admin.Do(ctx, admin.B().Zrange().Key(keys[0]).Min("0").Max("-1").Build()).AsStrSlice()
	if err != nil || len(members) != 1 || members[0] != "demo" {
		t.Errorf("after a new mark the set holds %q (%v), want only demo's", members, err)
	}
	eventually(t, "A sees the new mark", func() bool { got, ok := a.SignedOut(ctx, "demo"); return ok && got.Equal(now) })
}
