package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// A dated snapshot keeps the service data a report tab was built from, so
// it renders again with today's templates and no service call. Each tab's
// calls and the filling of its sections are shared with the live tab
// (its tabPage, report_tabs.go); this file saves, lists, shows and
// compares.

// snapshotTab reads the tab a save form names. A form without one is the
// overview's, as before every tab had the button.
func snapshotTab(raw string) (views.BusinessTab, error) {
	if raw == "" {
		return views.TabOverview, nil
	}
	tab, ok := views.ParseBusinessTab(raw)
	if !ok {
		return tab, badInput("“%s” is not a report tab, so no copy was saved. A dated copy keeps one of the tabs %s.",
			views.Clip(raw, 40), strings.Join(views.BusinessTabNames(), ", "))
	}
	return tab, nil
}

// submitSnapshot saves a dated copy of the tab the form names, with the
// values of its controls and the time the service sent the data.
func (h *Handler) submitSnapshot(c *echo.Context) error {
	id, err := businessID(c)
	if err != nil {
		return err
	}
	tab, err := snapshotTab(c.FormValue("tab"))
	if err != nil {
		return err
	}
	d, ld, err := h.loadTab(c, tab, id, c.FormValue)
	if err != nil {
		if outOfRequests(err) {
			return badInput("The %s tab is not fully loaded, so no copy was saved. Load the whole tab first, then save a dated copy.", tab.Label())
		}
		return err
	}
	data, err := json.Marshal(d.kept())
	if err != nil {
		return err
	}
	name := "Business " + strconv.FormatInt(int64(id), 10)
	if ident := d.header().identification(); ident != nil && ident.BusinessName != "" {
		name = ident.BusinessName
	}
	fetched := ld.rd.Report().FetchedAt
	if fetched.IsZero() {
		fetched = h.now()
	}
	a := h.analyst(c)
	info, err := h.store.SaveSnapshot(c.Request().Context(), a, store.SnapshotSpec{
		BusinessID: id, BusinessName: name, Tab: tab.Name(), Fetched: fetched, Data: data,
	})
	if err != nil {
		return workspaceError(err)
	}
	h.touched(a)
	return redirect(c, "/snapshots/"+strconv.FormatInt(info.ID, 10))
}

// showSnapshots lists the analyst's snapshots, newest first.
func (h *Handler) showSnapshots(c *echo.Context) error {
	list, err := h.store.Snapshots(h.wsCtx(c), h.analyst(c))
	if err != nil {
		return workspaceError(err)
	}
	page := views.SnapshotsPage{Rows: views.SnapshotRows(list)}
	page.Base = h.base(c, nil, "Dated copies", views.NavWorkspace)
	return h.render(c, http.StatusOK, templates.Snapshots(page))
}

// snapshot reads one of the analyst's snapshots, its tab and its data.
func (h *Handler) snapshot(c *echo.Context) (store.Snapshot, views.BusinessTab, tabPage, error) {
	id, err := rowID(c)
	if err != nil {
		return store.Snapshot{}, "", nil, err
	}
	s, err := h.store.Snapshot(h.wsCtx(c), h.analyst(c), id)
	if err != nil {
		return s, "", nil, workspaceError(err)
	}
	tab, ok := views.ParseBusinessTab(s.Tab)
	if !ok {
		// Only a later version could have stored it.
		return s, "", nil, fmt.Errorf("handlers: snapshot %d keeps tab %q, which this version does not know", s.ID, s.Tab)
	}
	d, err := readCopy(tab, s.Data)
	if err != nil {
		return s, "", nil, fmt.Errorf("handlers: snapshot %d: %w", s.ID, err)
	}
	return s, tab, d, nil
}

// showSnapshot renders a snapshot with today's template of its tab,
// marked "as of" its fetch time, without a service call.
func (h *Handler) showSnapshot(c *echo.Context) error {
	s, tab, d, err := h.snapshot(c)
	if err != nil {
		return err
	}
	hd := d.header()
	// A copy is the analyst's own: a colleague can open the live report.
	ref := upstream.ByID(s.BusinessID)
	share := h.siteURL(c) + views.BusinessPath(ref, tab)
	header := views.NewBusinessHeader(ref, hd.identification(), hd.naics, tab, share)
	base := h.base(c, nil, header.Name+" · "+tab.Label()+" · as of "+views.Date(s.Fetched), views.NavWorkspace)
	base.Workspace.Snapshot = views.NewSnapshotMark(s.SnapshotInfo)
	page, err := d.page(h, c, base, header, s.Fetched)
	if err != nil {
		return err
	}
	return h.render(c, http.StatusOK, page)
}

// showSnapshotCompare puts a snapshot beside today's data of its tab,
// loaded the same way (through the cache, within the budget), and marks
// what changed.
func (h *Handler) showSnapshotCompare(c *echo.Context) error {
	s, tab, then, err := h.snapshot(c)
	if err != nil {
		return err
	}
	now, ld, err := h.loadTab(c, tab, s.BusinessID, todayOf(then.value))
	page := views.SnapshotComparePage{Snapshot: *views.NewSnapshotMark(s.SnapshotInfo)}
	if err != nil {
		if errors.Is(err, upstream.ErrSessionExpired) {
			return err
		}
		page.TodayProblem = h.todayProblem(c, ld, tab, err)
		ld = nil
	} else {
		page.SetRows(views.CompareFacts(then.facts(), now.facts()))
	}
	page.Base = h.base(c, ld, s.BusinessName+" · "+tab.Label()+" · then and now", views.NavWorkspace)
	return h.render(c, http.StatusOK, templates.SnapshotCompare(page))
}

// todayOf is a copy's form for today's side of a comparison: the same
// choices (statements shown, their order, the peers' quarter and filters)
// without the dates that pinned the copy to its period (the score frame,
// the statement and peer years), so that today is today and not the
// copy's months again.
func todayOf(value func(string) string) func(string) string {
	return func(name string) string {
		switch name {
		case "from", "to", "year", "pyear":
			return ""
		}
		return value(name)
	}
}

// todayProblem is why today's side of a comparison is missing. Every call
// of the tab is needed, so calls left unloaded to save requests are
// offered as one.
func (h *Handler) todayProblem(c *echo.Context, ld *loaded, tab views.BusinessTab, err error) *views.Problem {
	all, ok := ld.allOffered(c)
	if !ok {
		return h.sectionProblem(c, err)
	}
	p := all.problem()
	p.Message = "Today's " + tab.Label() + " tab needs " + views.Plural(all.cost, "request") +
		" the cache lacks, and your account has " + views.Plural(all.left, "request") + " left this hour."
	return p
}

// submitDeleteSnapshot deletes a dated copy, which makes room under the
// bound.
func (h *Handler) submitDeleteSnapshot(c *echo.Context) error {
	id, err := rowID(c)
	if err != nil {
		return err
	}
	a := h.analyst(c)
	if err := h.store.DeleteSnapshot(c.Request().Context(), a, id); err != nil {
		return workspaceError(err)
	}
	h.touched(a)
	return redirect(c, "/snapshots")
}
