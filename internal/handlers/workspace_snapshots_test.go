package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

func TestWorkspaceSnapshots(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")
		report := u.Get("/businesses/1001")
		to := mustRedirect(t, "save a dated copy", u.Submit(report, ".snapshot-form"))
		if !strings.HasPrefix(to, "/snapshots/") {
			t.Fatalf("saving returns to %q", to)
		}

		// The copy renders with no service call, marked as of its date.
		before := calls(app, "demo")
		p := u.Get(to)
		if p.Status != http.StatusOK {
			t.Fatalf("GET %s: status = %d", to, p.Status)
		}
		if calls(app, "demo") != before {
			t.Error("showing a dated copy called the service")
		}
		if banner := p.Text(".snapshot-banner"); !strings.Contains(banner, "as of") {
			t.Errorf("banner = %q", banner)
		}
		if h1 := p.Text(".biz-header h1"); h1 != "Westbridge Department Stores Inc" {
			t.Errorf("copy's header = %q", h1)
		}
		if p.Doc.Find(".score-card").Length() != 4 || p.Doc.Find(".watch-form, .window-form, #notes").Length() != 0 {
			t.Error("the copy lacks its score cards or offers today's forms")
		}
		checkNoInline(t, to, p)

		list := u.Get("/snapshots")
		if n := list.Doc.Find("table.snapshots tbody tr").Length(); n != 1 {
			t.Errorf("%d copies listed, want 1", n)
		}

		cmp := u.Get(to + "/compare")
		if cmp.Status != http.StatusOK {
			t.Fatalf("compare: status = %d", cmp.Status)
		}
		if n := cmp.Doc.Find("table.compare-then-now tbody tr").Length(); n < 6 {
			t.Errorf("compare shows %d rows", n)
		}
		// Nothing changed within the test: the page says so in words, and
		// every row is among the folded unchanged ones.
		if cmp.Doc.Find("tr.changed").Length() != 0 || !strings.Contains(cmp.Text(".compare-summary"), "unchanged") ||
			!strings.Contains(cmp.Text("main"), "Nothing changed") || cmp.Doc.Find("details.compare-unchanged table.compare-same tbody tr").Length() < 6 {
			t.Errorf("compare: %s", cmp.Text("main"))
		}

		other := signInWS(t, app, "developer")
		for _, path := range []string{to, to + "/compare", "/snapshots/abc", "/snapshots/0/compare"} {
			if p := other.Get(path); p.Status != http.StatusNotFound {
				t.Errorf("another analyst GET %s: status = %d, want 404", path, p.Status)
			}
		}
		if p := other.post(to + "/delete"); p.Status != http.StatusNotFound {
			t.Errorf("another analyst deleting a copy: status = %d, want 404", p.Status)
		}
		if to := mustRedirect(t, "delete", u.Submit(u.Get("/snapshots"), "table.snapshots form")); to != "/snapshots" {
			t.Errorf("delete returns to %q", to)
		}
		if p := u.Get(to); p.Status != http.StatusNotFound {
			t.Errorf("a deleted copy: status = %d, want 404", p.Status)
		}
		if p := u.post("/businesses/abc/snapshots"); p.Status != http.StatusBadRequest {
			t.Errorf("POST /businesses/abc/snapshots: status = %d, want 400", p.Status)
		}
		if p := u.post("/businesses/999999/snapshots"); p.Status != http.StatusNotFound {
			t.Errorf("a copy of a business that does not exist: status = %d, want 404", p.Status)
		}
	})
}
