package handlers

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/alerts"
	"creditdash/internal/credit"
	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
)

// Alert rules are checked (internal/alerts) where score data arrives anyway (a report's
// CreditScoreHistory, the portfolio's Pay and Z″ histories), so checking
// them costs no request. Firings are stored once per rule, business and
// month by the store, so evaluating again on every view is harmless.
//
// A folder rule, and a portfolio rule checked on a report (the only place
// Risk and DBT arrive), also need to know which folders hold a business,
// which a report's score data does not say: that comes from the
// portfolio's memberships (Portfolio/Businesses for every folder, the copy
// /portfolio and the stress page read), loaded through the cache within
// the hourly budget and only for an analyst who has such a rule.

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
// rules, so a warm report costs no query of the rules; otherwise it
// returns the mark to set once they are (nil for a copy shown from
// another source, without a fingerprint, which is always checked).
func (h *Handler) evaluatedAlready(c *echo.Context, ld *loaded, business int32) (bool, *evaluated) {
	rep := ld.rd.Report()
	if rep.Fingerprint == 0 || rep.Failed > 0 {
		return false, nil
	}
	a := h.analyst(c)
	v, _ := h.wsBook.last.GetIfPresent(a)
	if nv, ok := h.wsBook.noRules.GetIfPresent(a); ok && nv == v {
		return true, nil
	}
	k := evaluated{analyst: a, business: business, fingerprint: rep.Fingerprint, version: v}
	if _, ok := h.wsBook.evaluated.GetIfPresent(k); ok {
		return true, nil
	}
	return false, &k
}

// markEvaluated remembers a complete evaluation. One that could not
// finish (a failing store, folder memberships not to be had) is not
// remembered, so the next view repeats it.
func (h *Handler) markEvaluated(k *evaluated, complete bool) {
	if k == nil || !complete {
		return
	}
	if v, ok := h.wsBook.noRules.GetIfPresent(k.analyst); ok && v == k.version {
		return // every report of the analyst is marked at once
	}
	h.wsBook.evaluated.Set(*k, struct{}{})
}

// alertsShown bounds the alerts /alerts lists.
const alertsShown = 200

// evaluate has internal/alerts check the rules against series that just
// arrived and reports whether every rule could be checked. fromPortfolio
// says the series are the portfolio's own histories. A failing store only
// loses this evaluation, never the page.
func (h *Handler) evaluate(c *echo.Context, series []credit.ScoreSeries, fromPortfolio bool) (complete bool) {
	a := h.analyst(c)
	// Read before the rules: a rule added meanwhile is a later change, so
	// the mark below would not match it.
	version, _ := h.wsBook.last.GetIfPresent(a)
	res, err := alerts.Scores(h.wsCtx(c), h.store, a, series, fromPortfolio, func() (map[int32][]int, bool) { return h.folderMembers(c) })
	if res.NoRules {
		h.wsBook.noRules.Set(a, version)
	}
	return h.alertsChecked(c, a, res, err)
}

// alertsChecked logs a failed check and, when new alerts were stored,
// moves the analyst's workspace on so the header's count is read anew
// (a page reads it after its alerts are checked, see counts).
func (h *Handler) alertsChecked(c *echo.Context, a store.Analyst, res alerts.Result, err error) (complete bool) {
	if err != nil {
		h.logWorkspace(c, "alerts", err)
		return false
	}
	if res.Recorded > 0 {
		h.touched(a)
	}
	return res.Complete
}

// folderMembers maps each business of the portfolio to the folders that
// hold it. Its one call is planned like a page's last section: read from
// the cache when held, else made only while the hourly budget has a
// request for it. ok is false when the memberships could not be had (left
// unloaded, failed, or not offered by the service); folder rules, and
// portfolio rules on a report, then wait for a later evaluation.
func (h *Handler) folderMembers(c *echo.Context) (map[int32][]int, bool) {
	var members []upstream.PortfolioBusiness
	var err error
	h.load(c, one("members", func(ctx context.Context, src Source) { members, err = src.PortfolioBusinesses(ctx, 0) }))
	switch {
	case err == nil:
		return views.FoldersOf(members), true
	case errors.Is(err, upstream.ErrNotFound):
		// The service does not list memberships: stop asking for a while.
		h.features.markMissing(session.Must(c).User, featureMembers)
	case !isDeferred(err):
		h.log.Warn("folder rules not checked: memberships failed", "request_id", middleware.RequestID(c), "op", "Portfolio/Businesses", "err", err)
	}
	return nil, false
}

// evaluateReport checks the rules against a report's score history.
func (h *Handler) evaluateReport(c *echo.Context, ld *loaded, ref upstream.BusinessRef, hd *headerData, hist []upstream.CreditScoreHistoryRow) {
	id, name := reportBusiness(ref, hd)
	if id == 0 {
		return
	}
	done, mark := h.evaluatedAlready(c, ld, id)
	if done {
		return
	}
	// Rules on this business, on the folders holding it and, when a folder
	// holds it, on the whole portfolio apply.
	h.markEvaluated(mark, h.evaluate(c, credit.ReportSeries(id, name, hist), false))
}

// evaluatePortfolio checks the rules against the portfolio's histories.
func (h *Handler) evaluatePortfolio(c *echo.Context, ld *loaded, pay, z upstream.PortfolioScoreHistory) {
	done, mark := h.evaluatedAlready(c, ld, 0)
	if done {
		return
	}
	series := append(credit.PortfolioSeries(store.ScorePay, pay), credit.PortfolioSeries(store.ScoreZ, z)...)
	h.markEvaluated(mark, h.evaluate(c, series, true))
}

// submitDeleteRule deletes a rule and the alerts it raised.
func (h *Handler) submitDeleteRule(c *echo.Context) error {
	id, err := rowID(c)
	if err != nil {
		return err
	}
	a := h.analyst(c)
	if err := h.store.DeleteRule(c.Request().Context(), a, id); err != nil {
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
	if err := h.store.MarkAlertRead(c.Request().Context(), a, id); err != nil {
		return workspaceError(err)
	}
	h.touched(a)
	return redirect(c, "/alerts")
}

// submitAllAlertsRead marks every alert the page showed read: those up to
// its newest (the form's upto, microseconds), so that one fired since, in
// another tab, stays unread. A form without it marks them all.
func (h *Handler) submitAllAlertsRead(c *echo.Context) error {
	a := h.analyst(c)
	var upTo time.Time
	if us, err := strconv.ParseInt(c.FormValue("upto"), 10, 64); err == nil && us > 0 {
		upTo = time.UnixMicro(us)
	}
	if _, err := h.store.MarkAllAlertsRead(c.Request().Context(), a, upTo); err != nil {
		return workspaceError(err)
	}
	h.touched(a)
	return redirect(c, "/alerts")
}
