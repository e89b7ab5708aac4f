package handlers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream/simulator"
)

// A page whose service call failed says so with the failure's status, as
// the scores and news pages do; a 200 would tell a monitor all was well.
func TestPortfolioViewsAnswerAFailureWithItsStatus(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{"/v1/Portfolio/PayScoreHistory"}})
	for _, path := range []string{"/portfolio/stress", "/portfolio/quadrant"} {
		p := u.Get(path)
		if p.Status != http.StatusBadGateway || !strings.Contains(p.Text(".problem"), "not answering") {
			t.Errorf("%s: status %d problem %q, want 502 told in the page", path, p.Status, p.Text(".problem"))
		}
	}
}

// Without the folder list, the quadrant of one folder names that folder
// instead of offering "Every business" over a narrowed view.
func TestQuadrantNamesItsFolderWithoutTheFolderList(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	folder := strconv.Itoa(demoUser(t, "demo").Folders[0].FolderID)
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{"/v1/Portfolio/Folders"}})
	p := u.Get("/portfolio/quadrant?folder=" + folder)
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	chosen := p.Doc.Find("#folder option[selected]")
	if v, _ := chosen.Attr("value"); v != folder || chosen.Text() != "Folder "+folder {
		t.Errorf("chosen option %q %q, want %q named Folder %s", v, chosen.Text(), folder, folder)
	}
}
