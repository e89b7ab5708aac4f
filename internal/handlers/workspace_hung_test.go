package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/store/storetest"
)

// A PostgreSQL that stops answering (every byte held, as a paused server
// holds them) costs a report one deadline for all its workspace reads, not
// the store's bound for each: the report renders with the service's data
// and its notes section says it could not read them.
func TestHungDatabaseCostsAReportOneDeadline(t *testing.T) {
	db := storetest.Database(t)
	u, err := url.Parse(db)
	if err != nil {
		t.Fatal(err)
	}
	f := storetest.NewFreezer(t, u.Host)
	app := apptest.Start(t, apptest.Options{DatabaseURL: f.Through(t, db)})
	user := signInWS(t, app, "demo")
	mustRedirect(t, "a note", user.post("/businesses/1001/notes", "text", "before the freeze"))
	if p := user.Get("/businesses/1001"); p.Status != http.StatusOK || !strings.Contains(p.Text("#notes"), "before the freeze") {
		t.Fatalf("before the freeze: status %d, notes %q", p.Status, p.Text("#notes"))
	}
	time.Sleep(2100 * time.Millisecond) // the glance believed for 2 s is read again
	f.Freeze()
	for _, path := range []string{"/businesses/1001", "/"} {
		start := time.Now()
		p := user.Get(path)
		took := time.Since(start)
		if p.Status != http.StatusOK {
			t.Errorf("GET %s on a hung database: status %d, want 200 with the service's data", path, p.Status)
		}
		if took > 3*time.Second {
			t.Errorf("GET %s on a hung database took %v, want about the 1.5 s deadline", path, took)
		}
		if path == "/businesses/1001" && !strings.Contains(p.Text("#notes"), "could not be read") {
			t.Errorf("the notes section says %q, want its problem", p.Text("#notes"))
		}
	}
}
