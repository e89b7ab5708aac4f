package handlers_test

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream/simulator"
)

func TestQuadrant(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	p := u.Get("/portfolio/quadrant")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	if got := p.Doc.Find(".quadrant section h2").First().Text(); !strings.HasPrefix(got, "Both worsening") {
		t.Errorf("first quadrant %q", got)
	}
	if p.Doc.Find("#chart-quadrant").Length() != 1 {
		t.Error("no quadrant chart")
	}
	missing := p.Text("#quadrant-missing-title + ul")
	for _, want := range []string{"private company", "thin trade file"} {
		if !strings.Contains(missing, want) {
			t.Errorf("missing list lacks %q", want)
		}
	}
	// 1001 (public retailer, Z″ falling) is placed; 1003 has no Pay score.
	if p.Doc.Find(`.quadrant a[href="/businesses/1001"]`).Length() != 1 {
		t.Error("1001 not placed")
	}
	if p.Doc.Find(`#quadrant-missing-title + ul a[href="/businesses/1003"]`).Length() != 1 {
		t.Error("1003 not listed as missing a signal")
	}
	if p := u.Get("/portfolio/quadrant?folder=abc"); p.Status != http.StatusBadRequest || !strings.Contains(p.Text(".form-error"), "Folder must be") {
		t.Errorf("bad folder: %d %q", p.Status, p.Text(".form-error"))
	}
	folder, _ := p.Doc.Find("#folder option").Eq(1).Attr("value")
	if f := u.Get("/portfolio/quadrant?folder=" + folder); f.Status != http.StatusOK || f.Doc.Find("#chart-quadrant").Length() != 1 {
		t.Errorf("folder %s: %d", folder, f.Status)
	}
	if f := u.Get("/portfolio/quadrant?folder=987654"); f.Status != http.StatusNotFound {
		t.Errorf("unknown folder: %d", f.Status)
	}
	// Home loaded the same histories: the quadrant costs nothing more.
	app.Sim.Reset()
	u.Get("/")
	app.Sim.Reset()
	u.Get("/portfolio/quadrant")
	if n := app.Sim.Requests()["demo"]["/v1/Portfolio/PayScoreHistory"]; n != 0 {
		t.Errorf("quadrant asked PayScoreHistory %d times after home", n)
	}
}

// A portfolio past the first 1,000 businesses by name says the quadrant
// places only those, as the stress page and the home page's moves do; a
// small one says nothing of the kind.
func TestQuadrantSaysWhenItPlacesOnlyTheFirstBusinesses(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Sim: simulator.Options{Bulk: 1100}})
	if p := app.SignIn(t, "bulk").Get("/portfolio/quadrant"); p.Status != http.StatusOK || !strings.Contains(p.Text("main"), "Only the first 1,000 businesses by name are placed") {
		t.Errorf("bulk portfolio of 1,100: status %d, no word of the cap in %.300q", p.Status, p.Text("main"))
	}
	if p := app.SignIn(t, "demo").Get("/portfolio/quadrant"); strings.Contains(p.Text("main"), "Only the first") {
		t.Error("a portfolio of 90 says it was capped")
	}
}

// A folder id the service cannot take, a folder list the service does not
// give, and a failed membership call each keep the folder choice.
func TestQuadrantFolderTroubleKeepsTheChoice(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	options := func(p *apptest.Page) int { return p.Doc.Find("#folder option").Length() }
	p := u.Get("/portfolio/quadrant?folder=2147483648")
	if p.Status != http.StatusBadRequest || !strings.Contains(p.Text("main"), "Folder must be a folder id") || options(p) < 2 {
		t.Errorf("folder 2147483648: status %d, %d options, %q; want 400 with the folders to choose from", p.Status, options(p), p.Text("[role=alert]"))
	}
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{"/v1/Portfolio/Businesses"}, ErrorStatus: 500})
	p = u.Get("/portfolio/quadrant?folder=101")
	if options(p) < 2 {
		t.Errorf("members failing: %d folder options, want the folder list", options(p))
	}

	var asked atomic.Int32
	none := apptest.Start(t, apptest.Options{StandIn: withoutMembers(&asked)})
	p = none.SignIn(t, "demo").Get("/portfolio/quadrant?folder=101")
	if p.Status != http.StatusOK || !strings.Contains(p.Text("main"), "does not list the businesses of a folder") {
		t.Errorf("a service without folder members: status %d, %q; want 200 saying so", p.Status, p.Text("main"))
	}
}

// A folder is one address: "+101" and "0101" are refused.
func TestFolderIDsAreCanonical(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	for _, raw := range []string{"+101", "0101"} {
		if p := u.Get("/portfolio/folders/" + raw); p.Status != http.StatusBadRequest {
			t.Errorf("/portfolio/folders/%s: status %d, want 400", raw, p.Status)
		}
		if p := u.Get("/portfolio/export?format=csv&folder=" + raw); p.Status != http.StatusBadRequest {
			t.Errorf("export of folder %s: status %d, want 400", raw, p.Status)
		}
	}
}

// An empty folder, or a portfolio without businesses, says so, instead of
// "No business has both signals", which speaks of businesses that are there.
func TestQuadrantSaysWhenThereIsNoBusiness(t *testing.T) {
	ds := simulator.Generate(simulator.GenerateOptions{Seed: apptest.Seed, AsOf: apptest.AsOf})
	for i := range ds.Users {
		if ds.Users[i].Username == "demo" {
			ds.Users[i].Folders = append(ds.Users[i].Folders, simulator.Folder{FolderID: 4242, FolderName: "Empty watch",
				DateCreated: "2026-01-01T00:00:00", DateUpdated: "2026-01-01T00:00:00"})
		}
		if ds.Users[i].Username == "trade" {
			ds.Users[i].Folders = nil
		}
	}
	app := apptest.Start(t, apptest.Options{Data: ds})
	if p := app.SignIn(t, "demo").Get("/portfolio/quadrant?folder=4242"); p.Text(".empty") != "This folder holds no businesses." {
		t.Errorf("an empty folder: status %d, %q", p.Status, p.Text(".empty"))
	}
	if p := app.SignIn(t, "trade").Get("/portfolio/quadrant"); p.Text(".empty") != "Your portfolio holds no businesses." {
		t.Errorf("no portfolio: status %d, %q", p.Status, p.Text(".empty"))
	}
}
