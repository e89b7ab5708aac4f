package handlers_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"creditdash/internal/apptest"
)

// An Ordinary account (10 requests an hour) signed in many times at once,
// every session opening reports, score pages and exports: the service gets
// at most the 10 calls of the hour and no one sees a 429 page.
func TestOrdinaryStormStaysWithinTheQuota(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	users := make([]*apptest.User, 20)
	for i := range users {
		users[i] = app.SignIn(t, "ordinary")
	}
	app.Sim.Reset()
	paths := []string{"/businesses/%d", "/businesses/%d/payments", "/portfolio/scores", "/portfolio/export?format=csv", "/news/industry", "/"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for i, u := range users {
		wg.Go(func() {
			for j := range 6 {
				path := paths[(i+j)%len(paths)]
				if strings.Contains(path, "%d") {
					path = fmt.Sprintf(path, 1001+(i*7+j)%40)
				}
				p := u.Get(path)
				mu.Lock()
				statuses[p.Status]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if n := total(app, "ordinary"); n > 10 {
		t.Errorf("the service got %d calls from an account of 10 an hour", n)
	}
	if statuses[http.StatusTooManyRequests] > 0 || statuses[http.StatusBadGateway] > 0 || statuses[http.StatusInternalServerError] > 0 {
		t.Errorf("answers by status: %v; want no 429, 502 or 500", statuses)
	}
}

func TestExportWithNothingLeftSaysWhenTheLimitRenews(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")
	for id := 1001; total(app, "ordinary") < 10 && id < 1020; id++ {
		u.Get(fmt.Sprintf("/businesses/%d/officers", id))
	}
	p := u.Get("/portfolio/export?format=csv&folder=1")
	if p.Status != http.StatusSeeOther || p.Location() != "/portfolio/folders/1?export=limited" {
		t.Fatalf("export with no requests left: status %d to %q, want 303 back to the folder", p.Status, p.Location())
	}
	p = u.Get("/portfolio?export=limited")
	if flash := p.Text(".flash"); !strings.Contains(flash, "no requests left") || !strings.Contains(flash, "renews at") {
		t.Errorf("the portfolio page says %q, want the renewal time", flash)
	}
}

// The export's words are said once: a typed or kept ?export=limited says
// nothing while requests are left, and the page's Refresh drops the word.
func TestExportWordIsNotCarriedOn(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")
	p := u.Get("/portfolio?export=limited")
	if flash := p.Text(".flash"); flash != "" {
		t.Errorf("with requests left, the page says %q", flash)
	}
	folder := strconv.Itoa(demoUser(t, "ordinary").Folders[0].FolderID)
	for _, path := range []string{"/portfolio?export=busy", "/portfolio/folders/" + folder + "?export=limited"} {
		p := u.Get(path)
		if page, _ := p.Doc.Find(`form input[name="page"]`).Attr("value"); strings.Contains(page, "export") || page == "" {
			t.Errorf("%s: Refresh returns to %q", path, page)
		}
	}
}
