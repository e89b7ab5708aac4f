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

// showBusinessOverview shows the summary, score cards and score charts over
// the chosen frame, and the risk history.
func (h *Handler) showBusinessOverview(c *echo.Context, ref upstream.BusinessRef) error {
	win, winFault := parseWindow(c.QueryParam("from"), c.QueryParam("to"))
	var (
		hd         headerData
		summary    upstream.BusinessSummary
		summaryErr error
		hist       []upstream.CreditScoreHistoryRow
		histErr    error
		risk       []upstream.RiskHistoryRow
		riskErr    error
	)
	ld := h.load(c, hd.section(ref),
		one("scores", func(ctx context.Context, src Source) {
			hist, histErr = src.CreditScoreHistory(ctx, ref, win.from, endDate(win.to))
		}),
		one("summary", func(ctx context.Context, src Source) { summary, summaryErr = src.Summary(ctx, ref) }),
		one("risk", func(ctx context.Context, src Source) { risk, riskErr = src.RiskHistory(ctx, ref, win.riskCount()) }),
	)
	if err := hd.pageError(summaryErr, histErr, riskErr); err != nil {
		return err
	}
	if histErr == nil {
		// Before the page key: a new alert changes the header's count.
		h.evaluateReport(c, ld, ref, &hd, hist)
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.BusinessOverviewPage{}
		page.Base, page.Header = h.businessBase(c, ld, ref, &hd, views.TabOverview)
		if id, _ := reportBusiness(ref, &hd); id != 0 {
			page.Workspace.Notes = h.notesSection(c, id)
			page.Workspace.SnapshotAction = views.BusinessPath(upstream.ByID(id), views.TabOverview) + "/snapshots"
		}
		page.Charts = true
		path := views.BusinessPath(ref, views.TabOverview)
		page.Window = views.TimeWindow{From: win.fromParam, To: win.toParam, Action: path, ResetURL: path}
		status := http.StatusOK
		if winFault != views.WindowOK {
			status = http.StatusBadRequest
			page.Window.Error = winFault.Message()
		}
		if page.Workspace.Notes != nil && page.Workspace.Notes.Error != "" {
			status = http.StatusUnprocessableEntity
		}

		page.SummaryProblem = h.sectionProblem(c, summaryErr)
		page.Summary = views.NewSummaryView(summary)

		if page.ScoresProblem = h.sectionProblem(c, histErr); page.ScoresProblem == nil {
			page.Window.FillFromHistory(hist)
			page.Cards = views.ScoreCards(hist, hd.public())
			charts, err := views.ScoreCharts(hist)
			if err != nil {
				return 0, nil, err
			}
			page.ScoreCharts = charts
		}
		if page.RiskProblem = h.sectionProblem(c, riskErr); page.RiskProblem == nil {
			panel, err := views.RiskHistoryChart(win.riskWithin(risk))
			if err != nil {
				return 0, nil, err
			}
			page.RiskHistory = panel
			page.RiskCoverage = views.RiskHistoryCoverage(risk, page.Cards)
		}
		return status, templates.BusinessOverview(page), nil
	})
}

// showBusinessPayments shows the monthly aging and the SIC breakdown.
func (h *Handler) showBusinessPayments(c *echo.Context, ref upstream.BusinessRef) error {
	var (
		hd         headerData
		monthly    []upstream.PaymentSummaryRow
		monthlyErr error
		sic        []upstream.PaymentSummaryRow
		sicErr     error
	)
	ld := h.load(c, hd.section(ref),
		one("monthly", func(ctx context.Context, src Source) { monthly, monthlyErr = src.PaymentSummaryMonthly(ctx, ref) }),
		one("sic", func(ctx context.Context, src Source) { sic, sicErr = src.PaymentSummarySIC(ctx, ref) }),
	)
	if err := hd.pageError(monthlyErr, sicErr); err != nil {
		return err
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.BusinessPaymentsPage{}
		page.Base, page.Header = h.businessBase(c, ld, ref, &hd, views.TabPayments)
		page.Charts = true
		var err error
		if page.MonthlyProblem = h.sectionProblem(c, monthlyErr); page.MonthlyProblem == nil {
			page.Monthly = views.AgingRows(monthly)
			page.DBTExplain = views.ExplainDBT(monthly)
			if page.AgingChart, err = views.AgingChart(monthly); err != nil {
				return 0, nil, err
			}
		}
		if page.SICProblem = h.sectionProblem(c, sicErr); page.SICProblem == nil {
			page.SICMonth, page.SICRows = views.SICLatest(sic)
			if page.SICChart, err = views.SICDBTChart(sic); err != nil {
				return 0, nil, err
			}
			if page.SICHeat, err = views.NewSICHeatMap(sic); err != nil {
				return 0, nil, err
			}
		}
		return http.StatusOK, templates.BusinessPayments(page), nil
	})
}

// showBusinessFinancials shows the annual statements, narrowed by their
// form, the latest financial comments, and where the business stands
// among its peers, chosen by theirs.
func (h *Handler) showBusinessFinancials(c *echo.Context, ref upstream.BusinessRef) error {
	form, formFaults := parseStatementsForm(c.QueryParam("count"), c.QueryParam("year"), c.QueryParam("sort"))
	peer, peerFaults := parsePeerForm(c.QueryParam("pyear"), c.QueryParam("quarter"),
		c.QueryParam("primary"), c.QueryParam("samerisk"))
	var (
		hd          headerData
		stmts       []upstream.AnnualFinancials
		stmtsErr    error
		comments    upstream.WordFill
		commentsErr error
		peers       upstream.PeerAnalysis
		peersErr    error
		zHist       []upstream.CreditScoreHistoryRow
		zHistErr    error
	)
	ld := h.load(c, hd.section(ref),
		one("statements", func(ctx context.Context, src Source) {
			stmts, stmtsErr = src.LatestAnnualStatements(ctx, ref, form.query)
		}),
		one("comments", func(ctx context.Context, src Source) { comments, commentsErr = src.WordFill(ctx, ref) }),
		one("peers", func(ctx context.Context, src Source) { peers, peersErr = src.PeerAnalysis(ctx, ref, peer.query) }),
		// The service's Z″ of each year-end month, for the explanation: the
		// overview's default frame, so the copy it fetched is shared.
		one("zscore", func(ctx context.Context, src Source) {
			zHist, zHistErr = src.CreditScoreHistory(ctx, ref, time.Time{}, time.Time{})
		}),
	)
	if err := hd.pageError(stmtsErr, commentsErr, peersErr, zHistErr); err != nil {
		return err
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.BusinessFinancialsPage{}
		page.Base, page.Header = h.businessBase(c, ld, ref, &hd, views.TabFinancials)
		action := views.BusinessPath(ref, views.TabFinancials)
		page.Controls = views.StatementControls{Count: form.count, Year: form.year, Sort: form.sort, Action: action}
		page.PeerControls = views.PeerControls{Year: peer.year, Quarter: peer.quarter,
			Primary: peer.query.SICPrimary, SameRisk: peer.query.RiskLevel == upstream.RiskLevelSame,
			Count: form.count, StatementYear: form.year, Sort: form.sort, Action: action}
		status := http.StatusOK
		if len(formFaults) > 0 {
			status = http.StatusBadRequest
			page.Controls.Error = formFaults.Message()
		}
		if len(peerFaults) > 0 {
			status = http.StatusBadRequest
			page.PeerControls.Error = peerFaults.Message()
		}
		if page.StatementsProblem = h.sectionProblem(c, stmtsErr); page.StatementsProblem == nil {
			page.Statements = views.NewStatementGrid(stmts)
		}
		if page.StatementsProblem == nil {
			if page.ZExplainProblem = h.sectionProblem(c, zHistErr); page.ZExplainProblem == nil {
				page.ZExplain = views.ExplainZ(stmts, zHist)
			}
		}
		if page.CommentsProblem = h.sectionProblem(c, commentsErr); page.CommentsProblem == nil {
			page.Comments = comments.Text
		}
		if page.PeersProblem = h.sectionProblem(c, peersErr); page.PeersProblem == nil {
			section, err := views.PeerView(peers)
			if err != nil {
				return 0, nil, err
			}
			page.Peers = section
			page.Charts = len(section.Rows) > 0
		}
		return status, templates.BusinessFinancials(page), nil
	})
}

// showBusinessOfficers shows the officers; the industry codes come from the
// header's own call.
func (h *Handler) showBusinessOfficers(c *echo.Context, ref upstream.BusinessRef) error {
	var (
		hd          headerData
		officers    []upstream.Officer
		officersErr error
	)
	ld := h.load(c, hd.section(ref),
		one("officers", func(ctx context.Context, src Source) { officers, officersErr = src.Officers(ctx, ref) }),
	)
	if err := hd.pageError(officersErr); err != nil {
		return err
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.BusinessOfficersPage{}
		page.Base, page.Header = h.businessBase(c, ld, ref, &hd, views.TabOfficers)
		if page.OfficersProblem = h.sectionProblem(c, officersErr); page.OfficersProblem == nil {
			page.Officers = views.OfficerRows(officers, page.Now)
		}
		return http.StatusOK, templates.BusinessOfficers(page), nil
	})
}
