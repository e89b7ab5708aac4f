package handlers_test

import (
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/store/storetest"
)

// A note written on one replica shows on the other's report as soon as
// that replica looks at the workspace again (within a couple of seconds),
// even though it kept the finished page. The clock stands still, so the
// kept page's minute never runs out on its own.
func TestWorkspaceChangeOnOneReplicaShowsOnTheOther(t *testing.T) {
	url := storetest.Database(t)
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	a := apptest.Start(t, apptest.Options{DatabaseURL: url, Now: clock})
	b := apptest.Start(t, apptest.Options{DatabaseURL: url, Now: clock, SameService: a})
	u := signInWS(t, a, "demo")
	onB := u.On(b)
	if p := onB.Get("/businesses/1001"); strings.Contains(p.Text("#notes"), "written on A") {
		t.Fatal("setup: the note is there before it is written")
	}
	onB.Get("/businesses/1001") // served from B's kept page

	mustRedirect(t, "a note on A", u.post("/businesses/1001/notes", "text", "written on A"))
	for range 40 {
		if strings.Contains(onB.Get("/businesses/1001").Text("#notes"), "written on A") {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Error("the note written on replica A never showed on B's report")
}
