package handlers

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// The report's financials tab: the annual statements narrowed by their
// form, the latest financial comments, and where the business stands
// among its peers, chosen by theirs.

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

// newFinancialsTab is the financials tab with the controls value names.
func newFinancialsTab(value func(string) string) tabPage {
	l, _, _ := newFinancialsLoad(value)
	return l
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

func (l *financialsLoad) kept() any {
	d := l.d
	d.copyHeader, d.Controls = headerCopy(&l.hd), map[string]string{}
	for _, f := range l.controls() {
		d.Controls[f.Name] = f.Value
	}
	return &d
}

// restore reads the copy's controls back too, so the page shows the
// statements and peers as they were chosen.
func (l *financialsLoad) restore(data []byte) error {
	var d financialsData
	if err := restoreCopy(data, &d, &d.copyHeader, &l.hd); err != nil {
		return err
	}
	hd := l.hd
	*l = *newFinancialsTab(func(name string) string { return d.Controls[name] }).(*financialsLoad)
	l.hd, l.d = hd, d
	return nil
}

func (l *financialsLoad) value(name string) string {
	for _, f := range l.controls() {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
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

func (l *financialsLoad) facts() []views.Fact {
	return views.FinancialsFacts(l.hd.identification(), l.d.Statements, l.d.Comments.Text, l.d.Peers)
}

func (l *financialsLoad) page(h *Handler, c *echo.Context, base views.Base, header views.BusinessHeader, _ time.Time) (templ.Component, error) {
	page := views.BusinessFinancialsPage{Base: base, Header: header}
	if err := h.fillFinancials(c, &page, l, ""); err != nil {
		return nil, err
	}
	return templates.BusinessFinancials(page), nil
}

func (l *financialsLoad) sheet(s *views.CreditSheet, src *views.SheetSource, _ time.Time) error {
	return sheetFinancials(s, &l.d, src)
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
	h.reportNews(c, ld, &l.hd)
	return h.respond(c, ld, func() (int, templ.Component, error) {
		if l.stmtsErr == nil {
			// A new statement year brings reviews forward (issue 27).
			h.recordStatementYear(c, ref, &l.hd, l.d.Statements)
			ld.arrived()
		}
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
