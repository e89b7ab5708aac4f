package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/alerts"
	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

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
