package handlers

import (
	"context"
	"errors"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
)

// Each report tab's service calls, the data they answered and how its
// sections are filled from that data live here, once: today's tab and a
// dated copy of it (which keeps the data as JSON and renders it again with
// the same code and no call) share them.

// tabLoad is one tab's calls and what they answered.
type tabLoad interface {
	// sections are the tab's calls, the header's first.
	sections(ref upstream.BusinessRef) []section
	// header is what the header's calls answered.
	header() *headerData
	// errs are the tab's own calls' errors.
	errs() []error
	// data is the tab's data as a dated copy keeps it.
	data() tabData
}

// copyHeader is the header's service data, kept by every tab's copy. Its
// field names are those overview copies were first saved with, so those
// still open.
type copyHeader struct {
	Ident *upstream.Identification `json:"ident,omitempty"`
	NAICS []upstream.NAICSCode     `json:"naics"`
}

// headerCopy is what a copy keeps of the header's answers.
func headerCopy(hd *headerData) copyHeader {
	return copyHeader{Ident: hd.identification(), NAICS: hd.naics}
}

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
func (l *overviewLoad) data() tabData {
	d := l.d
	d.copyHeader, d.From, d.To = headerCopy(&l.hd), l.win.fromParam, l.win.toParam
	return &d
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

// paymentsData is the payments tab's service data as a copy stores it.
type paymentsData struct {
	copyHeader
	Monthly []upstream.PaymentSummaryRow `json:"monthly"`
	SIC     []upstream.PaymentSummaryRow `json:"sic"`
}

// paymentsLoad is the payments tab's calls.
type paymentsLoad struct {
	hd                 headerData
	d                  paymentsData
	monthlyErr, sicErr error
}

func (l *paymentsLoad) sections(ref upstream.BusinessRef) []section {
	return []section{l.hd.section(ref),
		one("monthly", func(ctx context.Context, src Source) { l.d.Monthly, l.monthlyErr = src.PaymentSummaryMonthly(ctx, ref) }),
		one("sic", func(ctx context.Context, src Source) { l.d.SIC, l.sicErr = src.PaymentSummarySIC(ctx, ref) }),
	}
}

func (l *paymentsLoad) header() *headerData { return &l.hd }
func (l *paymentsLoad) errs() []error       { return []error{l.monthlyErr, l.sicErr} }
func (l *paymentsLoad) data() tabData {
	d := l.d
	d.copyHeader = headerCopy(&l.hd)
	return &d
}

// fillPayments fills the monthly aging and the SIC breakdown.
func (h *Handler) fillPayments(c *echo.Context, page *views.BusinessPaymentsPage, l *paymentsLoad) error {
	var err error
	if page.MonthlyProblem = h.sectionProblem(c, l.monthlyErr); page.MonthlyProblem == nil {
		page.Monthly = views.AgingRows(l.d.Monthly)
		page.DBTExplain = views.ExplainDBT(l.d.Monthly)
		if page.AgingChart, err = views.AgingChart(l.d.Monthly); err != nil {
			return err
		}
	}
	if page.SICProblem = h.sectionProblem(c, l.sicErr); page.SICProblem == nil {
		page.SICMonth, page.SICRows = views.SICLatest(l.d.SIC)
		if page.SICChart, err = views.SICDBTChart(l.d.SIC); err != nil {
			return err
		}
		if page.SICHeat, err = views.NewSICHeatMap(l.d.SIC); err != nil {
			return err
		}
		if page.MonthlyProblem == nil {
			return h.fillDivergence(c, page, l.d.Monthly, l.d.SIC)
		}
	}
	return nil
}

// financialsData is the financials tab's service data as a copy stores
// it, with the values of the tab's controls it was shown with.
type financialsData struct {
	copyHeader
	Statements []upstream.AnnualFinancials      `json:"statements"`
	Comments   upstream.WordFill                `json:"comments"`
	Peers      upstream.PeerAnalysis            `json:"peers"`
	ZHistory   []upstream.CreditScoreHistoryRow `json:"zhistory"`
	Controls   map[string]string                `json:"controls"`
}

// financialsLoad is the financials tab's calls, narrowed by its controls.
type financialsLoad struct {
	hd                                        headerData
	form                                      statementsForm
	peer                                      peerForm
	d                                         financialsData
	stmtsErr, commentsErr, peersErr, zHistErr error
}

// newFinancialsLoad reads the tab's controls with value (a query's, a
// form's or a copy's); refused values fall back to their defaults.
func newFinancialsLoad(value func(string) string) (*financialsLoad, views.StatementsFaults, views.PeerFaults) {
	form, formFaults := parseStatementsForm(value("count"), value("year"), value("sort"))
	peer, peerFaults := parsePeerForm(value("pyear"), value("quarter"), value("primary"), value("samerisk"))
	return &financialsLoad{form: form, peer: peer}, formFaults, peerFaults
}

func (l *financialsLoad) sections(ref upstream.BusinessRef) []section {
	return []section{l.hd.section(ref),
		one("statements", func(ctx context.Context, src Source) {
			l.d.Statements, l.stmtsErr = src.LatestAnnualStatements(ctx, ref, l.form.query)
		}),
		one("comments", func(ctx context.Context, src Source) { l.d.Comments, l.commentsErr = src.WordFill(ctx, ref) }),
		one("peers", func(ctx context.Context, src Source) {
			l.d.Peers, l.peersErr = src.PeerAnalysis(ctx, ref, l.peer.query)
		}),
		// The service's Z″ of each year-end month, for the explanation: the
		// overview's default frame, so the copy it fetched is shared.
		one("zscore", func(ctx context.Context, src Source) {
			l.d.ZHistory, l.zHistErr = src.CreditScoreHistory(ctx, ref, time.Time{}, time.Time{})
		}),
	}
}

func (l *financialsLoad) header() *headerData { return &l.hd }
func (l *financialsLoad) errs() []error {
	return []error{l.stmtsErr, l.commentsErr, l.peersErrForPage(), l.zHistErr}
}

// peersErrForPage is the peers' error as the whole page sees it: a peer
// analysis the service lacks (404) is the section's own matter, told
// there, not an unknown business.
func (l *financialsLoad) peersErrForPage() error {
	if errors.Is(l.peersErr, upstream.ErrNotFound) {
		return nil
	}
	return l.peersErr
}
func (l *financialsLoad) data() tabData {
	d := l.d
	d.copyHeader, d.Controls = headerCopy(&l.hd), map[string]string{}
	for _, f := range l.controls() {
		d.Controls[f.Name] = f.Value
	}
	return &d
}

// controls are the tab's controls as checked: what the save form sends
// along and a copy keeps.
func (l *financialsLoad) controls() []views.HiddenField {
	on := func(b bool) string {
		if b {
			return "on"
		}
		return ""
	}
	return []views.HiddenField{
		{Name: "count", Value: l.form.count}, {Name: "year", Value: l.form.year}, {Name: "sort", Value: l.form.sort},
		{Name: "pyear", Value: l.peer.year}, {Name: "quarter", Value: l.peer.quarter},
		{Name: "primary", Value: on(l.peer.query.SICPrimary)},
		{Name: "samerisk", Value: on(l.peer.query.RiskLevel == upstream.RiskLevelSame)},
	}
}

// fillFinancials fills the controls, statements, Z″ explanation, comments
// and peers; action is the controls' target.
func (h *Handler) fillFinancials(c *echo.Context, page *views.BusinessFinancialsPage, l *financialsLoad, action string) error {
	page.Controls = views.StatementControls{Count: l.form.count, Year: l.form.year, Sort: l.form.sort, Action: action}
	page.PeerControls = views.PeerControls{Year: l.peer.year, Quarter: l.peer.quarter,
		Primary: l.peer.query.SICPrimary, SameRisk: l.peer.query.RiskLevel == upstream.RiskLevelSame,
		Count: l.form.count, StatementYear: l.form.year, Sort: l.form.sort, Action: action}
	if page.StatementsProblem = h.sectionProblem(c, l.stmtsErr); page.StatementsProblem == nil {
		stmts := views.InOrder(l.d.Statements, l.form.sort == "A")
		units := views.ReadUnits(c.QueryParam("units"))
		page.Statements = views.NewStatementGridIn(stmts, units)
		page.UnitLinks = views.UnitLinks(pageURL(c), units)
		page.Controls.Units = string(units)
		if page.ZExplainProblem = h.sectionProblem(c, l.zHistErr); page.ZExplainProblem == nil {
			page.ZExplain = views.ExplainZ(stmts, l.d.ZHistory)
			page.ZExplain.Overview = page.ZExplain.Reconcile(l.d.ZHistory, stmts)
		}
	}
	if page.CommentsProblem = h.sectionProblem(c, l.commentsErr); page.CommentsProblem == nil {
		page.Comments = l.d.Comments.Text
	}
	if errors.Is(l.peersErr, upstream.ErrNotFound) {
		page.Peers = views.NoPeerAnalysis()
	} else if page.PeersProblem = h.sectionProblem(c, l.peersErr); page.PeersProblem == nil {
		section, err := views.PeerView(l.d.Peers)
		if err != nil {
			return err
		}
		page.Peers = section
		page.Charts = len(section.Rows) > 0
	}
	return nil
}

// officersData is the officers tab's service data as a copy stores it;
// its industry codes are the header's.
type officersData struct {
	copyHeader
	Officers []upstream.Officer `json:"officers"`
}

// officersLoad is the officers tab's calls.
type officersLoad struct {
	hd          headerData
	d           officersData
	officersErr error
}

func (l *officersLoad) sections(ref upstream.BusinessRef) []section {
	return []section{l.hd.section(ref),
		one("officers", func(ctx context.Context, src Source) { l.d.Officers, l.officersErr = src.Officers(ctx, ref) }),
	}
}

func (l *officersLoad) header() *headerData { return &l.hd }
func (l *officersLoad) errs() []error       { return []error{l.officersErr} }
func (l *officersLoad) data() tabData {
	d := l.d
	d.copyHeader = headerCopy(&l.hd)
	return &d
}

// fillOfficers fills the officers table; tenures are counted to now.
func (h *Handler) fillOfficers(c *echo.Context, page *views.BusinessOfficersPage, l *officersLoad, now time.Time) {
	if page.OfficersProblem = h.sectionProblem(c, l.officersErr); page.OfficersProblem == nil {
		page.Officers = views.OfficerRows(l.d.Officers, now)
	}
}
