package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v5"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// A dated snapshot keeps the service data a report tab was built from, so
// it renders again with today's templates and no service call. The
// overview is the tab kept so far.

// snapshotTab names the tab a snapshot keeps.
const snapshotTab = "overview"

// overviewData is the overview's service data as a snapshot stores it.
type overviewData struct {
	Ident   *upstream.Identification         `json:"ident,omitempty"`
	NAICS   []upstream.NAICSCode             `json:"naics"`
	Summary upstream.BusinessSummary         `json:"summary"`
	History []upstream.CreditScoreHistoryRow `json:"history"`
	// Risk is the risk history within the window shown.
	Risk []upstream.RiskHistoryRow `json:"risk"`
	From string                    `json:"from,omitempty"`
	To   string                    `json:"to,omitempty"`
}

// loadOverview reads the overview's data through the cache, as the tab
// does, for a business by its service id.
func (h *Handler) loadOverview(c *echo.Context, id int32, win scoreWindow) (overviewData, *loaded, error) {
	ref := upstream.ByID(id)
	var (
		hd                        headerData
		d                         overviewData
		summaryErr, histErr, rErr error
	)
	ld := h.load(c, hd.section(ref),
		one("scores", func(ctx context.Context, src Source) {
			d.History, histErr = src.CreditScoreHistory(ctx, ref, win.from, endDate(win.to))
		}),
		one("summary", func(ctx context.Context, src Source) { d.Summary, summaryErr = src.Summary(ctx, ref) }),
		one("risk", func(ctx context.Context, src Source) { d.Risk, rErr = src.RiskHistory(ctx, ref, win.riskCount()) }),
	)
	if err := hd.pageError(summaryErr, histErr, rErr); err != nil {
		return d, ld, err
	}
	if err := errors.Join(hd.naicsErr, summaryErr, histErr, rErr); err != nil {
		return d, ld, err
	}
	d.Ident, d.NAICS, d.Risk = hd.identification(), hd.naics, win.riskWithin(d.Risk)
	d.From, d.To = win.fromParam, win.toParam
	return d, ld, nil
}

// submitSnapshot saves a dated copy of the overview's data, with the time
// the service sent it.
func (h *Handler) submitSnapshot(c *echo.Context) error {
	id, err := businessID(c)
	if err != nil {
		return err
	}
	win, fault := parseWindow(c.FormValue("from"), c.FormValue("to"))
	if fault != views.WindowOK {
		win, _ = parseWindow("", "")
	}
	d, ld, err := h.loadOverview(c, id, win)
	if err != nil {
		if isDeferred(err) || errors.Is(err, upstream.ErrRateLimited) {
			return badInput("The report is not fully loaded, so no copy was saved. Load the whole report first, then save a dated copy.")
		}
		return err
	}
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	name := "Business " + strconv.FormatInt(int64(id), 10)
	if d.Ident != nil && d.Ident.BusinessName != "" {
		name = d.Ident.BusinessName
	}
	fetched := ld.rd.Report().FetchedAt
	if fetched.IsZero() {
		fetched = h.now()
	}
	a := h.analyst(c)
	info, err := h.ws.SaveSnapshot(c.Request().Context(), a, store.SnapshotSpec{
		BusinessID: id, BusinessName: name, Tab: snapshotTab, Fetched: fetched, Data: data,
	})
	if err != nil {
		return workspaceError(err)
	}
	h.touched(a)
	return redirect(c, "/snapshots/"+strconv.FormatInt(info.ID, 10))
}

// showSnapshots lists the analyst's snapshots, newest first.
func (h *Handler) showSnapshots(c *echo.Context) error {
	list, err := h.ws.Snapshots(c.Request().Context(), h.analyst(c))
	if err != nil {
		return err
	}
	page := views.SnapshotsPage{Rows: views.SnapshotRows(list)}
	page.Base = h.base(c, nil, "Dated copies", views.NavWorkspace)
	return h.render(c, http.StatusOK, templates.Snapshots(page))
}

// snapshot reads one of the analyst's snapshots and its data.
func (h *Handler) snapshot(c *echo.Context) (store.Snapshot, overviewData, error) {
	var d overviewData
	id, err := rowID(c)
	if err != nil {
		return store.Snapshot{}, d, err
	}
	s, err := h.ws.Snapshot(c.Request().Context(), h.analyst(c), id)
	if err != nil {
		return s, d, workspaceError(err)
	}
	if err := json.Unmarshal(s.Data, &d); err != nil {
		return s, d, err
	}
	return s, d, nil
}

// showSnapshot renders a snapshot with today's overview template, marked
// "as of" its fetch time, without a service call.
func (h *Handler) showSnapshot(c *echo.Context) error {
	s, d, err := h.snapshot(c)
	if err != nil {
		return err
	}
	ref := upstream.ByID(s.BusinessID)
	page := views.BusinessOverviewPage{}
	page.Header = views.NewBusinessHeader(ref, d.Ident, d.NAICS, views.TabOverview, c.Scheme()+"://"+c.Request().Host+c.Request().URL.RequestURI())
	page.Base = h.base(c, nil, page.Header.Name+" · as of "+views.Date(s.Fetched), views.NavWorkspace)
	page.Charts = true
	page.Workspace.Snapshot = views.NewSnapshotMark(s.SnapshotInfo)
	page.Window = views.TimeWindow{From: d.From, To: d.To}
	page.Summary = views.NewSummaryView(d.Summary)
	page.Window.FillFromHistory(d.History)
	var public *bool
	if d.Ident != nil {
		public = &d.Ident.Public
	}
	page.Cards = views.ScoreCards(d.History, public)
	if page.ScoreCharts, err = views.ScoreCharts(d.History); err != nil {
		return err
	}
	if page.RiskHistory, err = views.RiskHistoryChart(d.Risk); err != nil {
		return err
	}
	return h.render(c, http.StatusOK, templates.BusinessOverview(page))
}

// showSnapshotCompare puts a snapshot beside today's data (through the
// cache, within the budget) and marks what changed.
func (h *Handler) showSnapshotCompare(c *echo.Context) error {
	s, then, err := h.snapshot(c)
	if err != nil {
		return err
	}
	win, _ := parseWindow(then.From, then.To)
	now, ld, err := h.loadOverview(c, s.BusinessID, win)
	page := views.SnapshotComparePage{Snapshot: *views.NewSnapshotMark(s.SnapshotInfo)}
	if err != nil {
		if errors.Is(err, upstream.ErrSessionExpired) {
			return err
		}
		page.TodayProblem = h.sectionProblem(c, err)
		ld = nil
	} else {
		page.Rows = views.CompareOverview(views.OverviewFacts(then.Ident, then.Summary.Text, then.History, then.Risk),
			views.OverviewFacts(now.Ident, now.Summary.Text, now.History, now.Risk))
	}
	page.Base = h.base(c, ld, s.BusinessName+" · then and now", views.NavWorkspace)
	return h.render(c, http.StatusOK, templates.SnapshotCompare(page))
}

// submitDeleteSnapshot deletes a dated copy, which makes room under the
// bound.
func (h *Handler) submitDeleteSnapshot(c *echo.Context) error {
	id, err := rowID(c)
	if err != nil {
		return err
	}
	a := h.analyst(c)
	if err := h.ws.DeleteSnapshot(c.Request().Context(), a, id); err != nil {
		return workspaceError(err)
	}
	h.touched(a)
	return redirect(c, "/snapshots")
}
