package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Alert rules are evaluated where score data arrives anyway (a report's
// CreditScoreHistory, the portfolio's Pay and Z″ histories), so checking
// them costs no request. Firings are stored once per rule, business and
// month by the store, so evaluating again on every view is harmless.

// evaluated is a copy of score data already checked against the rules as
// they stood: the analyst, the business (0 for the portfolio), the exact
// cached copies and the analyst's last change here (a new rule is one).
type evaluated struct {
	analyst     store.Analyst
	business    int32
	fingerprint uint64
	version     int64
}

// evaluatedAlready reports that these very copies were checked under these
// rules, and otherwise remembers that they now are: a warm report then
// costs no query of the rules. A copy shown from another source (no
// fingerprint) is always checked.
func (h *Handler) evaluatedAlready(c *echo.Context, ld *loaded, business int32) bool {
	rep := ld.rd.Report()
	if rep.Fingerprint == 0 || rep.Failed > 0 {
		return false
	}
	a := h.analyst(c)
	v, _ := h.wsBook.last.GetIfPresent(a)
	k := evaluated{analyst: a, business: business, fingerprint: rep.Fingerprint, version: v}
	if _, ok := h.wsBook.evaluated.GetIfPresent(k); ok {
		return true
	}
	h.wsBook.evaluated.Set(k, struct{}{})
	return false
}

// alertsShown bounds the alerts /alerts lists.
const alertsShown = 200

// evaluate records what the rules find in series. A failing store only
// loses this evaluation (the next view repeats it), never the page.
func (h *Handler) evaluate(c *echo.Context, series []views.ScoreSeries, inPortfolio bool) {
	if len(series) == 0 {
		return
	}
	ctx := c.Request().Context()
	a := h.analyst(c)
	rules, err := h.ws.Rules(ctx, a)
	if err != nil {
		h.logWorkspace(c, "rules", err)
		return
	}
	if len(rules) == 0 {
		return
	}
	// Folder rules need the folders' members, which these answers do not
	// carry: they are evaluated where a folder's businesses are known.
	applies := func(r store.RuleSpec, id int32) bool {
		switch r.Scope {
		case store.ScopeBusiness:
			return r.BusinessID == id
		case store.ScopePortfolio:
			return inPortfolio
		}
		return false
	}
	fired := views.Evaluate(rules, series, applies)
	if len(fired) == 0 {
		return
	}
	n, err := h.ws.RecordAlerts(ctx, a, fired)
	if err != nil {
		h.logWorkspace(c, "record alerts", err)
		return
	}
	if n > 0 {
		h.touched(a)
		c.Set(ctxUnread, nil) // counted again, with the new ones
	}
}

// evaluateReport checks the rules against a report's score history.
func (h *Handler) evaluateReport(c *echo.Context, ld *loaded, ref upstream.BusinessRef, hd *headerData, hist []upstream.CreditScoreHistoryRow) {
	id, name := reportBusiness(ref, hd)
	if id == 0 || h.evaluatedAlready(c, ld, id) {
		return
	}
	// Whether the business is in the portfolio is not known here, so only
	// rules on this business apply; portfolio rules run on the home page.
	h.evaluate(c, views.ReportSeries(id, name, hist), false)
}

// evaluatePortfolio checks the rules against the portfolio's histories.
func (h *Handler) evaluatePortfolio(c *echo.Context, ld *loaded, pay, z upstream.PortfolioScoreHistory) {
	if h.evaluatedAlready(c, ld, 0) {
		return
	}
	series := append(views.PortfolioSeries(views.PortfolioPay, pay), views.PortfolioSeries(views.PortfolioZ, z)...)
	h.evaluate(c, series, true)
}

// showAlerts lists the rules, the form for a new one and the alerts.
func (h *Handler) showAlerts(c *echo.Context) error {
	page := views.AlertsPage{Form: views.RuleForm{Scope: string(store.ScopeBusiness), Score: string(store.ScoreRisk),
		Condition: string(store.Below), Business: c.QueryParam("business")}}
	return h.renderAlerts(c, http.StatusOK, page)
}

// renderAlerts fills the lists around the form and renders the page.
func (h *Handler) renderAlerts(c *echo.Context, status int, page views.AlertsPage) error {
	ctx := c.Request().Context()
	a := h.analyst(c)
	rules, err := h.ws.Rules(ctx, a)
	if err != nil {
		return err
	}
	alerts, err := h.ws.Alerts(ctx, a, alertsShown)
	if err != nil {
		return err
	}
	page.Rules, page.Alerts = views.RuleRows(rules), views.AlertRows(alerts)
	page.Base = h.base(c, nil, "Alerts", views.NavWorkspace)
	page.Unread = page.Workspace.Unread
	return h.render(c, status, templates.Alerts(page))
}

// maxThresholdLen bounds the threshold field as typed.
const maxThresholdLen = 20

// submitRule adds a rule; a refused one comes back in the form with what
// was chosen and the reason, status 422.
func (h *Handler) submitRule(c *echo.Context) error {
	form := views.RuleForm{
		Scope: c.FormValue("scope"), Business: strings.TrimSpace(c.FormValue("business")),
		Score: c.FormValue("score"), Condition: c.FormValue("condition"),
		Threshold: strings.TrimSpace(c.FormValue("threshold")),
	}
	spec, msg := readRule(form)
	a := h.analyst(c)
	if msg == "" {
		if spec.Scope == store.ScopeBusiness {
			spec.TargetName = h.watchedName(c, spec.BusinessID)
		}
		_, err := h.ws.AddRule(c.Request().Context(), a, spec)
		switch {
		case err == nil:
			h.touched(a)
			return redirect(c, "/alerts")
		case isFull(err) || isValidation(err):
			msg = storeMessage(err)
		default:
			return err
		}
	}
	form.Business, form.Threshold = views.Clip(form.Business, 40), views.Clip(form.Threshold, maxThresholdLen)
	form.Error = msg
	return h.renderAlerts(c, http.StatusUnprocessableEntity, views.AlertsPage{Form: form})
}

// watchedName names a business for a rule from the watch list, where the
// report's name was kept, without a service call.
func (h *Handler) watchedName(c *echo.Context, id int32) string {
	list, err := h.ws.WatchList(c.Request().Context(), h.analyst(c))
	if err == nil {
		for _, w := range list {
			if w.BusinessID == id {
				return w.Name
			}
		}
	}
	return "business " + strconv.FormatInt(int64(id), 10)
}

// readRule checks the form's shape; the store checks the threshold's range.
func readRule(f views.RuleForm) (store.RuleSpec, string) {
	spec := store.RuleSpec{Scope: store.Scope(f.Scope), Score: store.Score(f.Score), Condition: store.Condition(f.Condition)}
	switch spec.Scope {
	case store.ScopeBusiness:
		ref, err := upstream.ParseID(f.Business)
		if err != nil {
			return spec, "Give the business's id, a whole number such as 1001."
		}
		spec.BusinessID = ref.ID()
	case store.ScopePortfolio:
	default:
		return spec, "Choose one business or the whole portfolio."
	}
	if !spec.Score.Valid() {
		return spec, "Choose a score: Risk, Pay, DBT or Z″."
	}
	if spec.Scope == store.ScopePortfolio && !views.PortfolioRuleScore(spec.Score) {
		return spec, views.PortfolioRuleRefused
	}
	switch spec.Condition {
	case store.Below, store.Above, store.Fall:
		v, err := strconv.ParseFloat(f.Threshold, 64)
		if err != nil || len(f.Threshold) > maxThresholdLen {
			return spec, "The threshold must be a number, such as 3."
		}
		spec.Threshold = v
	case store.WorseZone:
	default:
		return spec, "Choose when the rule fires: below, above, a fall, or a worse zone."
	}
	return spec, ""
}

// isValidation reports input the store refused.
func isValidation(err error) bool {
	var ve *store.ValidationError
	return errors.As(err, &ve)
}

// submitDeleteRule deletes a rule and the alerts it raised.
func (h *Handler) submitDeleteRule(c *echo.Context) error {
	id, err := rowID(c)
	if err != nil {
		return err
	}
	a := h.analyst(c)
	if err := h.ws.DeleteRule(c.Request().Context(), a, id); err != nil {
		return workspaceError(err)
	}
	h.touched(a)
	return redirect(c, "/alerts")
}

// submitAlertRead marks one alert read.
func (h *Handler) submitAlertRead(c *echo.Context) error {
	id, err := rowID(c)
	if err != nil {
		return err
	}
	a := h.analyst(c)
	if err := h.ws.MarkAlertRead(c.Request().Context(), a, id); err != nil {
		return workspaceError(err)
	}
	h.touched(a)
	return redirect(c, "/alerts")
}

// submitAllAlertsRead marks every alert read.
func (h *Handler) submitAllAlertsRead(c *echo.Context) error {
	a := h.analyst(c)
	if _, err := h.ws.MarkAllAlertsRead(c.Request().Context(), a); err != nil {
		return err
	}
	h.touched(a)
	return redirect(c, "/alerts")
}
