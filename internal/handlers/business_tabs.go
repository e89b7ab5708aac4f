package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// showBusinessOverview shows the summary, score cards and score charts over
// the chosen frame, and the risk history.
func (h *Handler) showBusinessOverview(c *echo.Context, ref upstream.BusinessRef) error {
	s := mustSession(c)
	win, winErr := parseWindow(c.QueryParam("from"), c.QueryParam("to"))
	var (
		hd         headerData
		summary    upstream.BusinessSummary
		summaryErr error
		hist       []upstream.CreditScoreHistoryRow
		histErr    error
		risk       []upstream.RiskHistoryRow
		riskErr    error
	)
	if h.loadSections(c, s.Key, hd.section(h.svc, s.Key, ref),
		one("scores", func(ctx context.Context) {
			hist, histErr = h.svc.CreditScoreHistory(ctx, s.Key, ref, win.from, endDate(win.to))
		}),
		one("summary", func(ctx context.Context) { summary, summaryErr = h.svc.Summary(ctx, s.Key, ref) }),
		one("risk", func(ctx context.Context) { risk, riskErr = h.svc.RiskHistory(ctx, s.Key, ref, win.riskCount()) }),
	) {
		return nil
	}
	if err := hd.pageError(summaryErr, histErr, riskErr); err != nil {
		return err
	}
	page := views.BusinessOverviewPage{}
	page.Base, page.Header = h.businessBase(c, ref, &hd, views.TabOverview)
	page.Charts = true
	path := views.BusinessPath(ref, views.TabOverview)
	page.Window = views.TimeWindow{From: win.fromParam, To: win.toParam, Action: path, ResetURL: path}
	status := http.StatusOK
	if winErr != nil {
		status = http.StatusBadRequest
		page.Window.Error = winErr.Error()
	}

	page.SummaryProblem = h.sectionProblem(c, summaryErr)
	page.Summary = views.NewSummaryView(summary)

	if page.ScoresProblem = h.sectionProblem(c, histErr); page.ScoresProblem == nil {
		page.Window.FillFromHistory(hist)
		page.Cards = views.ScoreCards(hist, hd.public())
		charts, err := views.ScoreCharts(hist)
		if err != nil {
			return err
		}
		page.ScoreCharts = charts
	}
	if page.RiskProblem = h.sectionProblem(c, riskErr); page.RiskProblem == nil {
		panel, err := views.RiskHistoryChart(win.riskWithin(risk))
		if err != nil {
			return err
		}
		page.RiskHistory = panel
	}
	return h.render(c, status, templates.BusinessOverview(page))
}

// showBusinessPayments shows the monthly aging and the SIC breakdown.
func (h *Handler) showBusinessPayments(c *echo.Context, ref upstream.BusinessRef) error {
	s := mustSession(c)
	var (
		hd         headerData
		monthly    []upstream.PaymentSummaryRow
		monthlyErr error
		sic        []upstream.PaymentSummaryRow
		sicErr     error
	)
	if h.loadSections(c, s.Key, hd.section(h.svc, s.Key, ref),
		one("monthly", func(ctx context.Context) { monthly, monthlyErr = h.svc.PaymentSummaryMonthly(ctx, s.Key, ref) }),
		one("sic", func(ctx context.Context) { sic, sicErr = h.svc.PaymentSummarySIC(ctx, s.Key, ref) }),
	) {
		return nil
	}
	if err := hd.pageError(monthlyErr, sicErr); err != nil {
		return err
	}
	page := views.BusinessPaymentsPage{}
	page.Base, page.Header = h.businessBase(c, ref, &hd, views.TabPayments)
	page.Charts = true
	var err error
	if page.MonthlyProblem = h.sectionProblem(c, monthlyErr); page.MonthlyProblem == nil {
		page.Monthly = views.AgingRows(monthly)
		if page.AgingChart, err = views.AgingChart(monthly); err != nil {
			return err
		}
	}
	if page.SICProblem = h.sectionProblem(c, sicErr); page.SICProblem == nil {
		page.SICMonth, page.SICRows = views.SICLatest(sic)
		if page.SICChart, err = views.SICDBTChart(sic); err != nil {
			return err
		}
	}
	return h.render(c, http.StatusOK, templates.BusinessPayments(page))
}

// showBusinessFinancials shows the annual statements, narrowed by the
// form, and the latest financial comments.
func (h *Handler) showBusinessFinancials(c *echo.Context, ref upstream.BusinessRef) error {
	s := mustSession(c)
	form, formErr := parseStatementsForm(c.QueryParam("count"), c.QueryParam("year"), c.QueryParam("sort"))
	var (
		hd          headerData
		stmts       []upstream.AnnualFinancials
		stmtsErr    error
		comments    upstream.WordFill
		commentsErr error
	)
	if h.loadSections(c, s.Key, hd.section(h.svc, s.Key, ref),
		one("statements", func(ctx context.Context) {
			stmts, stmtsErr = h.svc.LatestAnnualStatements(ctx, s.Key, ref, form.query)
		}),
		one("comments", func(ctx context.Context) { comments, commentsErr = h.svc.WordFill(ctx, s.Key, ref) }),
	) {
		return nil
	}
	if err := hd.pageError(stmtsErr, commentsErr); err != nil {
		return err
	}
	page := views.BusinessFinancialsPage{}
	page.Base, page.Header = h.businessBase(c, ref, &hd, views.TabFinancials)
	page.Controls = views.StatementControls{Count: form.count, Year: form.year, Sort: form.sort,
		Action: views.BusinessPath(ref, views.TabFinancials)}
	status := http.StatusOK
	if formErr != nil {
		status = http.StatusBadRequest
		page.Controls.Error = formErr.Error()
	}
	if page.StatementsProblem = h.sectionProblem(c, stmtsErr); page.StatementsProblem == nil {
		page.Statements = views.NewStatementGrid(stmts)
	}
	if page.CommentsProblem = h.sectionProblem(c, commentsErr); page.CommentsProblem == nil {
		page.Comments = comments.Text
	}
	return h.render(c, status, templates.BusinessFinancials(page))
}

// showBusinessOfficers shows the officers; the industry codes come from the
// header's own call.
func (h *Handler) showBusinessOfficers(c *echo.Context, ref upstream.BusinessRef) error {
	s := mustSession(c)
	var (
		hd          headerData
		officers    []upstream.Officer
		officersErr error
	)
	if h.loadSections(c, s.Key, hd.section(h.svc, s.Key, ref),
		one("officers", func(ctx context.Context) { officers, officersErr = h.svc.Officers(ctx, s.Key, ref) }),
	) {
		return nil
	}
	if err := hd.pageError(officersErr); err != nil {
		return err
	}
	page := views.BusinessOfficersPage{}
	page.Base, page.Header = h.businessBase(c, ref, &hd, views.TabOfficers)
	if page.OfficersProblem = h.sectionProblem(c, officersErr); page.OfficersProblem == nil {
		page.Officers = views.OfficerRows(officers, page.Now)
	}
	return h.render(c, http.StatusOK, templates.BusinessOfficers(page))
}
