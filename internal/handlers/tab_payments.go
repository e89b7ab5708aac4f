package handlers

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/alerts"
	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// The report's payments tab: the monthly aging and the SIC breakdown.

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
	// own is the team's supplier category, read once by the page (its
	// key, its alerts and its panel agree on it).
	own string
}

// newPaymentsTab is the payments tab, which has no controls.
func newPaymentsTab(func(string) string) tabPage { return &paymentsLoad{} }

func (l *paymentsLoad) sections(ref upstream.BusinessRef) []section {
	return []section{l.hd.section(ref),
		one("monthly", func(ctx context.Context, src Source) { l.d.Monthly, l.monthlyErr = src.PaymentSummaryMonthly(ctx, ref) }),
		one("sic", func(ctx context.Context, src Source) { l.d.SIC, l.sicErr = src.PaymentSummarySIC(ctx, ref) }),
	}
}

func (l *paymentsLoad) header() *headerData { return &l.hd }
func (l *paymentsLoad) errs() []error       { return []error{l.monthlyErr, l.sicErr} }
func (l *paymentsLoad) value(string) string { return "" }

func (l *paymentsLoad) kept() any {
	d := l.d
	d.copyHeader = headerCopy(&l.hd)
	return &d
}

func (l *paymentsLoad) restore(data []byte) error {
	return restoreCopy(data, &l.d, &l.d.copyHeader, &l.hd)
}

func (l *paymentsLoad) facts() []views.Fact {
	return views.PaymentsFacts(l.hd.identification(), l.d.Monthly, l.d.SIC)
}

func (l *paymentsLoad) page(h *Handler, c *echo.Context, base views.Base, header views.BusinessHeader, _ time.Time) (templ.Component, error) {
	page := views.BusinessPaymentsPage{Base: base, Header: header}
	page.Charts = true
	if len(l.d.SIC) > 0 {
		l.own = h.ownCategory(c)
	}
	if err := h.fillPayments(c, &page, l); err != nil {
		return nil, err
	}
	return templates.BusinessPayments(page), nil
}

func (l *paymentsLoad) sheet(s *views.CreditSheet, src *views.SheetSource, _ time.Time) error {
	sheetPayments(s, &l.d, src)
	return nil
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
			return h.fillDivergence(c, page, l.d.Monthly, l.d.SIC, l.own)
		}
	}
	return nil
}

// showBusinessPayments shows the monthly aging and the SIC breakdown.
func (h *Handler) showBusinessPayments(c *echo.Context, ref upstream.BusinessRef) error {
	l := &paymentsLoad{}
	ld := h.load(c, l.sections(ref)...)
	if err := l.hd.pageError(l.errs()...); err != nil {
		return err
	}
	if l.sicErr == nil && len(l.d.SIC) > 0 {
		l.own = h.ownCategory(c)
	}
	h.reportNews(c, ld, &l.hd)
	return h.respond(c, ld, func() (int, templ.Component, error) {
		if l.monthlyErr == nil && l.sicErr == nil {
			h.evaluatePayments(c, ld, ref, &l.hd, l.d.Monthly, l.d.SIC, l.own)
			ld.arrived()
		}
		page := views.BusinessPaymentsPage{}
		page.Base, page.Header = h.businessBase(c, ld, ref, &l.hd, views.TabPayments)
		page.Charts = true
		if err := h.fillPayments(c, &page, l); err != nil {
			return 0, nil, err
		}
		return http.StatusOK, templates.BusinessPayments(page), nil
	})
}

// "Paying suppliers like you last": divergence rules are checked where a
// business's payments by supplier category arrive anyway, its payments
// tab, at no extra request; a rule that follows the team's supplier
// category reads it from settings when it is checked.

// supplierCategoryPath is the settings page of the team's category.
const supplierCategoryPath = "/settings/supplier-category"

// ownCategory is the team's supplier category, "" when not set or
// not to be had (a failing store only loses the default).
func (h *Handler) ownCategory(c *echo.Context) string {
	code, err := h.store.SupplierCategory(c.Request().Context(), h.analyst(c))
	if err != nil {
		h.logWorkspace(c, "supplier category", err)
		return ""
	}
	return code
}

// evaluatePayments checks the divergence rules against a payments tab's
// monthly and SIC summaries; own is the team's category as the page read
// it.
func (h *Handler) evaluatePayments(c *echo.Context, ld *loaded, ref upstream.BusinessRef, hd *headerData, monthly, sic []upstream.PaymentSummaryRow, own string) {
	id, name := reportBusiness(ref, hd)
	if id == 0 || len(sic) == 0 {
		return
	}
	// The page shows the team's category, which another analyst may change:
	// a kept page must not outlive it.
	ld.state += "\ncategory:" + own
	done, mark := h.evaluatedAlready(c, ld, id)
	if done {
		return
	}
	h.markEvaluated(mark, h.evaluateDivergence(c, id, name, monthly, sic, own))
}

// evaluateDivergence has internal/alerts check the divergence rules and
// reports whether it could check every one of them.
func (h *Handler) evaluateDivergence(c *echo.Context, id int32, name string, monthly, sic []upstream.PaymentSummaryRow, own string) bool {
	a := h.analyst(c)
	res, err := alerts.Payments(c.Request().Context(), h.store, a, id, name, monthly, sic,
		func() string { return own }, func() (map[int32][]int, bool) { return h.folderMembers(c) })
	return h.alertsChecked(c, a, res, err)
}

// fillDivergence fills the payments tab's two DBT lines: the category the
// query names, else the analyst's own when the business reports it, else
// the one whose DBT rose most against the overall DBT. own is the team's
// category as the page read it.
func (h *Handler) fillDivergence(c *echo.Context, page *views.BusinessPaymentsPage, monthly, sic []upstream.PaymentSummaryRow, own string) error {
	page.DivergenceOptions = views.DivergenceOptions(sic)
	if len(page.DivergenceOptions) == 0 {
		return nil
	}
	page.OwnCategory = own
	code := credit.MatchCategory(sic, strings.TrimSpace(c.QueryParam("category")))
	if code == "" {
		code = credit.MatchCategory(sic, page.OwnCategory)
	}
	if code == "" {
		code = credit.SteepestCategory(monthly, sic)
	}
	if code == "" {
		code = page.DivergenceOptions[0].ID
	}
	page.DivergenceCategory = code
	var err error
	page.Divergence, page.DivergenceSummary, err = views.DivergencePanel(credit.NewDivergence(monthly, sic, code))
	return err
}

// showSupplierCategory shows the team's supplier category.
func (h *Handler) showSupplierCategory(c *echo.Context) error {
	code, err := h.store.SupplierCategory(c.Request().Context(), h.analyst(c))
	if err != nil {
		return workspaceError(err)
	}
	return h.renderSupplierCategory(c, http.StatusOK, views.SupplierCategoryPage{Code: code, Saved: code})
}

// submitSupplierCategory sets (or, empty, clears) the team's category.
func (h *Handler) submitSupplierCategory(c *echo.Context) error {
	code := strings.TrimSpace(c.FormValue("category"))
	a := h.analyst(c)
	err := h.store.SetSupplierCategory(c.Request().Context(), a, code)
	switch {
	case err == nil:
		h.touched(a)
		return redirect(c, supplierCategoryPath)
	case isValidation(err):
		saved, _ := h.store.SupplierCategory(c.Request().Context(), a)
		showAt(c, supplierCategoryPath)
		return h.renderSupplierCategory(c, http.StatusUnprocessableEntity,
			views.SupplierCategoryPage{Code: views.Clip(code, 20), Saved: saved, Error: storeMessage(err)})
	}
	return workspaceError(err)
}

func (h *Handler) renderSupplierCategory(c *echo.Context, status int, page views.SupplierCategoryPage) error {
	page.Base = h.base(c, nil, "The team's supplier category", views.NavWorkspace)
	return h.render(c, status, templates.SupplierCategory(page))
}

// readDivergence reads a divergence rule's days and category from the
// rule form; blank days take the defaults (10 and 3).
func readDivergence(f views.RuleForm, spec *store.RuleSpec) string {
	spec.Score = store.ScoreDBT
	spec.Threshold, spec.Steady = store.DefaultDivergenceRise, store.DefaultDivergenceSteady
	if f.Threshold != "" {
		v, ok := parseThreshold(f.Threshold)
		if !ok {
			return "The rise toward the category must be a whole number of days, such as 10."
		}
		spec.Threshold = v
	}
	if f.Steady != "" {
		v, ok := parseThreshold(f.Steady)
		if !ok {
			return "The overall DBT's move must be a whole number of days, such as 3."
		}
		spec.Steady = v
	}
	spec.Category = strings.TrimSpace(f.Category)
	return ""
}
