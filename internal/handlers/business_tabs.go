package handlers

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// showBusinessOverview shows the summary, score cards and score charts over
// the chosen frame, and the risk history.
func (h *Handler) showBusinessOverview(c *echo.Context, ref upstream.BusinessRef) error {
	return h.businessOverview(c, ref, nil)
}

// businessOverview is the overview with a refused note's draft, if any,
// in its notes section and its status.
func (h *Handler) businessOverview(c *echo.Context, ref upstream.BusinessRef, draft *noteDraft) error {
	win, winFault := parseWindow(c.QueryParam("from"), c.QueryParam("to"), h.now())
	l := &overviewLoad{win: win}
	ld := h.load(c, l.sections(ref)...)
	if err := l.hd.pageError(l.errs()...); err != nil {
		return err
	}
	l.hd.news = h.reportNews(c, ld, &l.hd)
	// The team's version, read once: the score record's mark, the account
	// tile and the header's decisions waiting are kept under it, so a warm
	// report reads none of them.
	ts := h.reportTeam(c)
	h.waitingAt(c, ts)
	if l.histErr == nil && win.reachesLatest() {
		// Before the page key: a new alert changes the header's count.
		// A frame that ends in the past is history: its last month is not
		// the business's score now, and no rule may fire on it.
		h.evaluateReport(c, ld, ref, &l.hd, l.d.History)
		// The team's latest known scores arrive here too (issue 26).
		h.recordTeamScores(c, ld, ts, ref, &l.hd, l.d.History)
		h.noteReportScores(c, ld, ref, &l.hd, l.d.History)
	}
	// Read before the page key, which must change with the team's data.
	account := h.accountPanel(c, ld, ts, ref, &l.hd, l.d.History, l.histErr)
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.BusinessOverviewPage{Account: account}
		// The notes are read while the header reads the watch state.
		var notes func() *views.NotesSection
		if id, _ := reportBusiness(ref, &l.hd); id != 0 {
			notes = h.startNotes(c, id, draft)
		}
		page.Base, page.Header = h.businessBase(c, ld, ref, &l.hd, views.TabOverview)
		if notes != nil {
			page.Workspace.Notes = notes()
		}
		page.Charts = true
		path := views.BusinessPath(ref, views.TabOverview)
		page.Window = views.TimeWindow{From: win.fromParam, To: win.toParam, Action: path, ResetURL: path}
		status := http.StatusOK
		if winFault != views.WindowOK {
			status = http.StatusBadRequest
			page.Window.Error = winFault.Message()
		}
		if draft != nil {
			status = draft.status
		}
		if err := h.fillOverview(c, &page, l, l.hd.public()); err != nil {
			return 0, nil, err
		}
		if page.Header.News != nil {
			views.WithEvent(page.Cards, page.Header.News.Event)
		}
		if f := page.Workspace.SaveSnapshot; f != nil {
			// The frame drawn, so the copy keeps the months shown.
			f.Fields = []views.HiddenField{{Name: "from", Value: page.Window.From}, {Name: "to", Value: page.Window.To}}
		}
		return status, templates.BusinessOverview(page), nil
	})
}

// showBusinessPayments shows the monthly aging and the SIC breakdown.
func (h *Handler) showBusinessPayments(c *echo.Context, ref upstream.BusinessRef) error {
	l := &paymentsLoad{}
	ld := h.load(c, l.sections(ref)...)
	if err := l.hd.pageError(l.errs()...); err != nil {
		return err
	}
	if l.monthlyErr == nil && l.sicErr == nil {
		h.evaluatePayments(c, ld, ref, &l.hd, l.d.Monthly, l.d.SIC)
	}
	l.hd.news = h.reportNews(c, ld, &l.hd)
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.BusinessPaymentsPage{}
		page.Base, page.Header = h.businessBase(c, ld, ref, &l.hd, views.TabPayments)
		page.Charts = true
		if err := h.fillPayments(c, &page, l); err != nil {
			return 0, nil, err
		}
		return http.StatusOK, templates.BusinessPayments(page), nil
	})
}

// showBusinessFinancials shows the annual statements, narrowed by their
// form, the latest financial comments, and where the business stands
// among its peers, chosen by theirs.
func (h *Handler) showBusinessFinancials(c *echo.Context, ref upstream.BusinessRef) error {
	l, formFaults, peerFaults := newFinancialsLoad(c.QueryParam)
	if l.peer.query.Year > h.now().Year() {
		// No business has filed for a year still to come: the latest
		// year with statements, and a word why.
		l.peer.query.Year, l.peer.year = 0, ""
		peerFaults = append(peerFaults, views.PeerFutureYear)
	}
	ld := h.load(c, l.sections(ref)...)
	if err := l.hd.pageError(l.errs()...); err != nil {
		return err
	}
	l.hd.news = h.reportNews(c, ld, &l.hd)
	if l.stmtsErr == nil {
		// A new statement year brings reviews forward (issue 27).
		h.recordStatementYear(c, ref, &l.hd, l.d.Statements)
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.BusinessFinancialsPage{}
		page.Base, page.Header = h.businessBase(c, ld, ref, &l.hd, views.TabFinancials)
		if err := h.fillFinancials(c, &page, l, views.BusinessPath(ref, views.TabFinancials)); err != nil {
			return 0, nil, err
		}
		status := http.StatusOK
		if len(formFaults) > 0 {
			status = http.StatusBadRequest
			page.Controls.Error = formFaults.Message()
		}
		if len(peerFaults) > 0 {
			status = http.StatusBadRequest
			page.PeerControls.Error = peerFaults.Message()
		}
		if f := page.Workspace.SaveSnapshot; f != nil {
			f.Fields = l.controls()
		}
		return status, templates.BusinessFinancials(page), nil
	})
}

// showBusinessOfficers shows the officers; the industry codes come from the
// header's own call.
func (h *Handler) showBusinessOfficers(c *echo.Context, ref upstream.BusinessRef) error {
	l := &officersLoad{}
	ld := h.load(c, l.sections(ref)...)
	if err := l.hd.pageError(l.errs()...); err != nil {
		return err
	}
	l.hd.news = h.reportNews(c, ld, &l.hd)
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.BusinessOfficersPage{}
		page.Base, page.Header = h.businessBase(c, ld, ref, &l.hd, views.TabOfficers)
		h.fillOfficers(c, &page, l, page.Now)
		return http.StatusOK, templates.BusinessOfficers(page), nil
	})
}
