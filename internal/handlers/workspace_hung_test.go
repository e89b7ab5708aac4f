package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
	"creditdash/internal/store/storetest"
)

// A PostgreSQL that stops answering (every byte held, as a paused server
// holds them) costs a report one deadline for all its workspace reads, not
// one for each: the reads in flight when the page's deadline passes are
// given up together, and no read of the page waits on the database after
// that. The report renders with the service's data and its notes section
// says it could not read them. The frozen server's own count of what its
// clients did shows it, so nothing here is timed.
func TestHungDatabaseCostsAReportOneDeadline(t *testing.T) {
	db := storetest.Database(t)
	u, err := url.Parse(db)
	if err != nil {
		t.Fatal(err)
	}
	f := storetest.NewFreezer(t, u.Host)
	// Only the pages' reads count: the team's listener goes on hearing,
	// and the health checks do not run again after the first.
	f.Spare(store.ListenerName)
	app := apptest.Start(t, apptest.Options{DatabaseURL: f.Through(t, db), HealthEvery: time.Hour})
	user := signInWS(t, app, "demo")
	mustRedirect(t, "a note", user.post("/businesses/1001/notes", "text", "before the freeze"))
	if p := user.Get("/businesses/1001"); p.Status != http.StatusOK || !strings.Contains(p.Text("#notes"), "before the freeze") {
		t.Fatalf("before the freeze: status %d, notes %q", p.Status, p.Text("#notes"))
	}
	// A change of the workspace makes the next page read it again (its
	// header's counts included) instead of believing what it last read.
	mustRedirect(t, "watching", user.post("/businesses/1001/watch"))
	f.Freeze()
	for _, path := range []string{"/businesses/1001", "/"} {
		from := len(f.Events())
		p := user.Get(path)
		if p.Status != http.StatusOK {
			t.Errorf("GET %s on a hung database: status %d, want 200 with the service's data", path, p.Status)
		}
		if path == "/businesses/1001" && !strings.Contains(p.Text("#notes"), "could not be read") {
			t.Errorf("the notes section says %q, want its problem", p.Text("#notes"))
		}
		// Every wait the page began is given up before it answers; the
		// cancel requests saying so may reach the server just after.
		evs := f.Await(t, from, func(evs []storetest.Event) bool {
			waits, given := tally(evs)
			return waits > 0 && given >= waits
		})
		t.Logf("GET %s: %v", path, evs)
		waits, _ := tally(evs)
		given := false
		for _, e := range evs {
			if e == storetest.Wait && given {
				t.Errorf("GET %s on a hung database waited on it again after giving a wait up (%d waits in all, in the order %v): its reads did not share one deadline", path, waits, evs)
				break
			}
			given = given || e == storetest.GiveUp
		}
	}
}

// tally counts a frozen server's waits and give-ups.
func tally(evs []storetest.Event) (waits, given int) {
	for _, e := range evs {
		switch e {
		case storetest.Wait:
			waits++
		case storetest.GiveUp:
			given++
		}
	}
	return waits, given
}
