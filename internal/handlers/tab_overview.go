package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// The report's overview tab: the summary, score cards and score charts
// over a chosen frame, and the risk history.

// overviewData is the overview's service data as a copy stores it.
type overviewData struct {
	copyHeader
	Summary upstream.BusinessSummary         `json:"summary"`
	History []upstream.CreditScoreHistoryRow `json:"history"`
	// Risk is the risk history as the service sent it (copies saved before
	// every tab could be kept hold only the months within the window).
	Risk []upstream.RiskHistoryRow `json:"risk"`
	From string                    `json:"from,omitempty"`
	To   string                    `json:"to,omitempty"`
}

// overviewLoad is the overview's calls over the chosen window.
type overviewLoad struct {
	hd                           headerData
	win                          scoreWindow
	d                            overviewData
	summaryErr, histErr, riskErr error
}

// newOverviewTab is the overview over the frame value names.
func newOverviewTab(value func(string) string) tabPage {
	return &overviewLoad{win: windowOrDefault(value("from"), value("to"))}
}

// windowOrDefault is the frame a saved form names, or the default frame
// when the form is refused, as the overview shows it then.
func windowOrDefault(from, to string) scoreWindow {
	win, fault := parseWindow(from, to, time.Time{})
	if fault != views.WindowOK {
		win, _ = parseWindow("", "", time.Time{})
	}
	return win
}

func (l *overviewLoad) sections(ref upstream.BusinessRef) []section {
	return []section{l.hd.section(ref),
		one("scores", func(ctx context.Context, src Source) {
			l.d.History, l.histErr = src.CreditScoreHistory(ctx, ref, l.win.from, endDate(l.win.to))
		}),
		one("summary", func(ctx context.Context, src Source) { l.d.Summary, l.summaryErr = src.Summary(ctx, ref) }),
		one("risk", func(ctx context.Context, src Source) {
			l.d.Risk, l.riskErr = src.RiskHistory(ctx, ref, l.win.riskCount())
		}),
	}
}

func (l *overviewLoad) header() *headerData { return &l.hd }
func (l *overviewLoad) errs() []error       { return []error{l.summaryErr, l.histErr, l.riskErr} }

func (l *overviewLoad) kept() any {
	d := l.d
	d.copyHeader, d.From, d.To = headerCopy(&l.hd), l.win.fromParam, l.win.toParam
	return &d
}

func (l *overviewLoad) restore(data []byte) error {
	if err := restoreCopy(data, &l.d, &l.d.copyHeader, &l.hd); err != nil {
		return err
	}
	l.win = windowOrDefault(l.d.From, l.d.To)
	return nil
}

func (l *overviewLoad) value(name string) string {
	switch name {
	case "from":
		return l.win.fromParam
	case "to":
		return l.win.toParam
	}
	return ""
}

func (l *overviewLoad) facts() []views.Fact {
	return views.OverviewFacts(l.hd.identification(), l.d.Summary.Text, l.d.History, l.win.riskWithin(l.d.Risk))
}

func (l *overviewLoad) page(h *Handler, c *echo.Context, base views.Base, header views.BusinessHeader, _ time.Time) (templ.Component, error) {
	page := views.BusinessOverviewPage{Base: base, Header: header}
	page.Charts = true
	page.Window = views.TimeWindow{From: l.d.From, To: l.d.To}
	if err := h.fillOverview(c, &page, l, l.hd.public()); err != nil {
		return nil, err
	}
	return templates.BusinessOverview(page), nil
}

func (l *overviewLoad) sheet(s *views.CreditSheet, src *views.SheetSource, _ time.Time) error {
	sheetOverview(s, &l.d, src)
	return nil
}

// fillOverview fills the summary, score and risk sections; a section
// whose call failed shows its problem instead. public is nil when unknown.
func (h *Handler) fillOverview(c *echo.Context, page *views.BusinessOverviewPage, l *overviewLoad, public *bool) error {
	page.SummaryProblem = h.sectionProblem(c, l.summaryErr)
	page.Summary = views.NewSummaryView(l.d.Summary)
	if page.ScoresProblem = h.sectionProblem(c, l.histErr); page.ScoresProblem == nil {
		page.Window.FillFromHistory(l.d.History)
		page.Cards = views.ScoreCards(l.d.History, public)
		page.ZSource = views.ZSource(l.d.History)
		charts, err := views.ScoreCharts(l.d.History)
		if err != nil {
			return err
		}
		page.ScoreCharts = charts
	}
	if page.RiskProblem = h.sectionProblem(c, l.riskErr); page.RiskProblem == nil {
		panel, err := views.RiskHistoryChart(l.win.riskWithin(l.d.Risk))
		if err != nil {
			return err
		}
		page.RiskHistory = panel
		page.RiskCoverage = views.RiskHistoryCoverage(l.win.riskWithin(l.d.Risk), page.Cards)
	}
	return nil
}

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
	h.reportNews(c, ld, &l.hd)
	// A kept page is of the same copies, rules and team version, so
	// everything below was done when it was built.
	return h.respond(c, ld, func() (int, templ.Component, error) {
		if l.histErr == nil && win.reachesLatest() {
			// A frame that ends in the past is history: its last month is
			// not the business's score now, and no rule may fire on it.
			h.reportArrived(c, ld, ref, &l.hd, l.d.History)
		}
		page := views.BusinessOverviewPage{Account: h.accountPanel(c, ld, ref, &l.hd, l.d.History, l.histErr)}
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
