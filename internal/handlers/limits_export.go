package handlers

import (
	"bytes"
	"errors"
	"math"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/amount"
	"creditdash/internal/erp"
	"creditdash/internal/roles"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Limits and holds back to the ERP (issue 46.4): a review-first worksheet
// of what changed since the last export (internal/erp), a preview of the
// file in each ERP's shape (GET, records nothing), and the export itself
// (a CSRF-checked POST that records the lines and what the ERP now holds,
// audited, and answers the file). A recorded export's file can be had
// again as it went.

// erpWorksheet is the worksheet as of now: every account of the newest
// ledger and the record, with the same figures and review schedule as
// /worklist, against what the exports sent.
func (h *Handler) erpWorksheet(c *echo.Context) ([]erp.Line, float64, error) {
	ctx, a := c.Request().Context(), h.analyst(c)
	ts, err := h.teamNow(ctx, a)
	if err != nil {
		return nil, 0, accountsError(err)
	}
	b, err := h.teamWorkBase(ctx, ts)
	if err != nil {
		return nil, 0, accountsError(err)
	}
	threshold, err := h.store.ERPThreshold(ctx, a)
	if err != nil {
		return nil, 0, accountsError(err)
	}
	sent, err := h.store.ERPSentState(ctx, a)
	if err != nil {
		return nil, 0, accountsError(err)
	}
	now := h.now()
	states := make([]erp.State, len(b.figs))
	for i := range b.figs {
		states[i] = erp.StateOf(&b.figs[i], b.last[i], int(b.years[i]), threshold, now)
	}
	return erp.Worksheet(states, sent), threshold, nil
}

// showLimitsExport is the worksheet's page.
func (h *Handler) showLimitsExport(c *echo.Context) error {
	return h.limitsExportPage(c, http.StatusOK, "", "")
}

// limitsExportPage renders the page, with a refused threshold typed and
// its reason when there is one.
func (h *Handler) limitsExportPage(c *echo.Context, status int, typed, refusal string) error {
	lines, threshold, err := h.erpWorksheet(c)
	if err != nil {
		return err
	}
	exports, err := h.store.ERPExports(c.Request().Context(), h.analyst(c))
	if err != nil {
		return accountsError(err)
	}
	p := views.NewERPExportPage(lines, exports, threshold)
	p.Base = h.base(c, nil, "Limits back to the ERP", views.NavAccounts)
	role := h.rolesNow(c).Of(p.User).Role
	p.Manager, p.CanExport = role.May(roles.SetPolicy), role.May(roles.ChangeAccounts)
	p.ThresholdValue, p.ThresholdError = strconv.FormatFloat(threshold, 'f', -1, 64), refusal
	if refusal != "" {
		p.ThresholdValue = typed
	}
	switch c.QueryParam("done") {
	case "threshold":
		p.Flash = "The over-limit threshold was set; the change is in the audit trail."
	case "nothing":
		p.Flash = "Nothing changed since the last export: nothing was recorded."
	}
	return h.render(c, status, templates.LimitsExport(p))
}

// systemOf is the file shape a request names; an unknown one is refused
// with the names it takes.
func systemOf(name string) (erp.System, error) {
	if s, ok := erp.SystemNamed(name); ok {
		return s, nil
	}
	names := make([]string, len(erp.Systems))
	for i, s := range erp.Systems {
		names[i] = s.Name
	}
	return erp.System{}, badInput("Choose the system the file is for: %s.", strings.Join(names, ", "))
}

// sendERPFile answers lines in the system's shape as a download named for
// the system and, for a recorded export, its id.
func (h *Handler) sendERPFile(c *echo.Context, s erp.System, lines []erp.Line, id int64) error {
	var b bytes.Buffer
	if err := s.Write(&b, lines); err != nil {
		return err
	}
	name := "creditdash-limits-" + s.Name + "-" + h.now().UTC().Format("2006-01-02")
	if id == 0 {
		name += "-preview"
	} else {
		name += "-" + strconv.FormatInt(id, 10)
	}
	hd := c.Response().Header()
	hd.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": name + ".csv"}))
	hd.Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, mime.FormatMediaType("text/csv", map[string]string{"charset": "utf-8"}), b.Bytes())
}

// previewLimitsExport is GET /limits/export.csv?system=…: the worksheet as
// of now in the system's shape. It records nothing, so the ERP's next
// worksheet still holds these lines.
func (h *Handler) previewLimitsExport(c *echo.Context) error {
	s, err := systemOf(c.QueryParam("system"))
	if err != nil {
		return err
	}
	lines, _, err := h.erpWorksheet(c)
	if err != nil {
		return err
	}
	return h.sendERPFile(c, s, lines, 0)
}

// submitLimitsExport is POST /limits/export.csv: the worksheet as of now
// is recorded as sent to the system (its lines, what the ERP now holds of
// each account, one audit entry) and answered as the system's file. The
// file is exactly what was recorded.
func (h *Handler) submitLimitsExport(c *echo.Context) error {
	s, err := systemOf(c.FormValue("system"))
	if err != nil {
		return err
	}
	lines, _, err := h.erpWorksheet(c)
	if err != nil {
		return err
	}
	if len(lines) == 0 {
		return c.Redirect(http.StatusSeeOther, views.ERPExportPath+"?done=nothing")
	}
	records := make([]store.ERPLine, len(lines))
	for i, l := range lines {
		records[i] = l.Record()
	}
	e, err := h.store.RecordERPExport(c.Request().Context(), h.analyst(c), s.Name, records)
	if err != nil {
		return accountsError(err)
	}
	return h.sendERPFile(c, s, lines, e.ID)
}

// exportERPFile is a recorded export's file again, as it went.
func (h *Handler) exportERPFile(c *echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return echo.ErrNotFound
	}
	e, records, err := h.store.ERPExportLines(c.Request().Context(), h.analyst(c), id)
	if errors.Is(err, store.ErrNotFound) {
		return echo.ErrNotFound
	}
	if err != nil {
		return accountsError(err)
	}
	s, err := systemOf(e.System)
	if err != nil {
		return err
	}
	lines := make([]erp.Line, len(records))
	for i, r := range records {
		lines[i] = erp.FromRecord(r)
	}
	return h.sendERPFile(c, s, lines, e.ID)
}

// submitERPThreshold sets the team's over-limit threshold, a percentage
// typed as an amount (internal/amount); a manager's (roles.SetPolicy).
func (h *Handler) submitERPThreshold(c *echo.Context) error {
	typed := views.Clip(strings.TrimSpace(c.FormValue("threshold")), 40)
	v, ok, err := amount.Typed(strings.TrimSpace(strings.TrimSuffix(typed, "%")))
	refusal := ""
	switch {
	case err != nil:
		refusal = err.Error() + "."
	case !ok || math.IsNaN(v) || v < 0 || v > store.MaxERPThreshold:
		refusal = "Type a percentage from 0 to 1,000, such as 10 or 12.5."
	}
	if refusal != "" {
		return h.limitsExportPage(c, http.StatusUnprocessableEntity, typed, refusal)
	}
	if err := h.store.SetERPThreshold(c.Request().Context(), h.analyst(c), v); err != nil {
		return accountsError(err)
	}
	return c.Redirect(http.StatusSeeOther, views.ERPExportPath+"?done=threshold")
}
