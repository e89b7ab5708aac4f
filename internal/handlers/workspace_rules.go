package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/views"
	"creditdash/templates"
)

// The rule form of /alerts: a rule on one business, a folder or the whole
// portfolio. The folders come from Portfolio/Folders through the cache and
// within the hourly budget, as a page's section: the home page and
// /portfolio read the same copy, so listing them is most often free.

// ruleFolders is the analyst's folder list as the rule form read it.
type ruleFolders struct {
	folders []upstream.Folder
	ld      *loaded
	err     error
}

// loadRuleFolders reads the folders for the rule form.
func (h *Handler) loadRuleFolders(c *echo.Context) ruleFolders {
	var rf ruleFolders
	rf.ld = h.load(c, one("folders", func(ctx context.Context, src Source) { rf.folders, rf.err = src.Folders(ctx) }))
	return rf
}

// showAlerts lists the rules, the form for a new one and the alerts.
func (h *Handler) showAlerts(c *echo.Context) error {
	page := views.AlertsPage{Form: views.RuleForm{Scope: string(store.ScopeBusiness), Score: string(store.ScoreRisk),
		Condition: string(store.Below), Business: views.Clip(c.QueryParam("business"), 40),
		Folder: views.Clip(c.QueryParam("folder"), 40)}}
	if ref, err := upstream.ParseID(c.QueryParam("business")); err == nil {
		// "Alert me" from a report: the legend names the business, from
		// the watch list or the report's copy, never a call.
		if page.Form.For = h.watchedName(c, ref.ID()); page.Form.For == "" {
			page.Form.For = "business " + ref.String()
		}
	}
	return h.renderAlerts(c, http.StatusOK, page, h.loadRuleFolders(c))
}

// renderAlerts fills the lists around the form and renders the page.
func (h *Handler) renderAlerts(c *echo.Context, status int, page views.AlertsPage, rf ruleFolders) error {
	if err := expiredAmong(rf.err); err != nil {
		return err
	}
	ctx := h.wsCtx(c)
	a := h.analyst(c)
	rules, err := h.store.Rules(ctx, a)
	if err != nil {
		return workspaceError(err)
	}
	alerts, err := h.store.Alerts(ctx, a, alertsShown+1)
	if err != nil {
		return workspaceError(err)
	}
	if page.More = len(alerts) > alertsShown; page.More {
		alerts = alerts[:alertsShown]
	}
	if page.Form.FoldersProblem = h.sectionProblem(c, rf.err); page.Form.FoldersProblem != nil {
		// The form may have been posted: retrying or loading is a GET of
		// /alerts, never of the form's target.
		if page.Form.FoldersProblem.ActionURL != "" {
			page.Form.FoldersProblem.ActionURL = "/alerts?load=folders"
		}
		if page.Form.FoldersProblem.RetryURL != "" {
			page.Form.FoldersProblem.RetryURL = "/alerts"
		}
	} else {
		page.Form.Folders = views.RuleFolders(rf.folders)
	}
	page.Rules, page.Alerts, page.NewestShown = views.RuleRows(rules, alerts), views.AlertRows(alerts), views.NewestShown(alerts)
	page.Base = h.base(c, rf.ld, "Alerts", views.NavWorkspace)
	page.Unread = page.Workspace.Unread
	return h.render(c, status, templates.Alerts(page))
}

// maxThresholdLen bounds the threshold field as typed.
const maxThresholdLen = 20

// submitRule adds a rule; a refused one comes back in the form with what
// was chosen and the reason, status 422.
func (h *Handler) submitRule(c *echo.Context) error {
	form := readRuleForm(c)
	spec, msg, rf, loaded, err := h.checkRuleForm(c, form)
	if err != nil {
		return err
	}
	a := h.analyst(c)
	if msg == "" {
		_, err := h.store.AddRule(c.Request().Context(), a, spec)
		switch {
		case err == nil:
			h.touched(a)
			return redirect(c, "/alerts")
		case isFull(err) || isValidation(err):
			msg = storeMessage(err)
		default:
			return workspaceError(err)
		}
	}
	if !loaded {
		rf = h.loadRuleFolders(c)
	}
	form = keptRuleForm(form)
	form.Error = msg
	showAt(c, "/alerts")
	return h.renderAlerts(c, http.StatusUnprocessableEntity, views.AlertsPage{Form: form}, rf)
}

// folderTarget checks that the analyst's portfolio has the folder and
// names it for the rule list, or says why no rule can be saved.
func folderTarget(rf ruleFolders, id int) (name, msg string) {
	switch {
	case outOfRequests(rf.err):
		return "", "Your folders are not loaded: your account has no requests left this hour, so folder " +
			strconv.Itoa(id) + " could not be checked. No rule was saved; try again once the limit renews."
	case errors.Is(rf.err, upstream.ErrNotFound):
		return "", "The service lists no folders for your account, so no folder rule can be set."
	case rf.err != nil:
		return "", "Your folders could not be loaded just now, so folder " + strconv.Itoa(id) +
			" could not be checked. No rule was saved; try again."
	}
	name, ok := views.FolderName(rf.folders, id)
	if !ok {
		return "", "There is no folder " + strconv.Itoa(id) + " in your portfolio. Choose one of your folders."
	}
	return name, ""
}

// watchedName names a business for a rule from the watch list, where the
// report's name was kept, without a service call.
func (h *Handler) watchedName(c *echo.Context, id int32) string {
	list, err := h.store.WatchList(h.wsCtx(c), h.analyst(c))
	if err == nil {
		for _, w := range list {
			if w.BusinessID == id {
				return w.Name
			}
		}
	}
	// A report read lately left its name in the cache; a probe reads it
	// without a call, so naming a rule never spends a request.
	s := session.Must(c)
	probe := h.cache.Reader(cache.Who{User: s.User, Key: s.Key}).Probe(nil)
	if ident, err := probe.IdentificationGroup(c.Request().Context(), upstream.ByID(id)); err == nil && ident.BusinessName != "" {
		return ident.BusinessName
	}
	return "" // the rule names the business by id until an alert names it
}

// readRule checks the form's shape; the store checks the threshold's range
// and folderTarget that the folder is the analyst's.
func readRule(f views.RuleForm) (store.RuleSpec, string) {
	spec := store.RuleSpec{Scope: store.Scope(f.Scope), Score: store.Score(f.Score), Condition: store.Condition(f.Condition)}
	switch spec.Scope {
	case store.ScopeBusiness:
		ref, err := upstream.ParseID(f.Business)
		if err != nil {
			return spec, "Give the business's id, a whole number such as 1001."
		}
		spec.BusinessID = ref.ID()
	case store.ScopeFolder:
		id, err := strconv.ParseInt(f.Folder, 10, 32)
		if err != nil || id < 1 {
			return spec, "Choose one of your folders (or give its id, a whole number such as 101)."
		}
		spec.FolderID = int(id)
	case store.ScopePortfolio:
	case store.ScopeAccounts:
		return spec, readAccountRule(f, &spec)
	default:
		return spec, "Choose one business, a folder, the whole portfolio or the team's accounts."
	}
	if store.IsAccountCondition(spec.Condition) {
		return spec, "Over limit, share over 90 days and utilisation watch the team's accounts: choose “any of the team's accounts”."
	}
	if spec.Condition == store.Divergence {
		return spec, readDivergence(f, &spec)
	}
	if !spec.Score.Valid() {
		return spec, "Choose a score: Risk, Pay, DBT or Z″."
	}
	switch spec.Condition {
	case store.Below, store.Above, store.Fall:
		v, ok := parseThreshold(f.Threshold)
		if !ok {
			return spec, "The threshold must be a number, such as 3 or 1.5."
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

// parseThreshold reads a plain decimal number (the form trimmed it).
// strconv alone would also take "0x1p1", "6e1" and "Inf", which nobody
// means for a score.
func parseThreshold(s string) (float64, bool) {
	if len(s) > maxThresholdLen {
		return 0, false
	}
	digits := false
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits = true
		case (r == '+' || r == '-') && i == 0, r == '.':
		default:
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, digits && err == nil
}

// showRuleEdit is /alerts with the form filled in from one of the
// analyst's rules, to change it; another analyst's rule is 404.
func (h *Handler) showRuleEdit(c *echo.Context) error {
	id, err := rowID(c)
	if err != nil {
		return err
	}
	rule, err := h.ownRule(c, id)
	if err != nil {
		return err
	}
	form := views.EditRuleForm(rule)
	return h.renderAlerts(c, http.StatusOK, views.AlertsPage{Form: form}, h.loadRuleFolders(c))
}

// submitRuleEdit saves the changed rule, checked as a new one is; a
// refused change comes back in the same form with what was typed and the
// reason, status 422.
func (h *Handler) submitRuleEdit(c *echo.Context) error {
	id, err := rowID(c)
	if err != nil {
		return err
	}
	if _, err := h.ownRule(c, id); err != nil {
		return err
	}
	form := readRuleForm(c)
	form.Editing = strconv.FormatInt(id, 10)
	spec, msg, rf, loaded, err := h.checkRuleForm(c, form)
	if err != nil {
		return err
	}
	a := h.analyst(c)
	if msg == "" {
		_, err := h.store.EditRule(c.Request().Context(), a, id, spec)
		switch {
		case err == nil:
			h.touched(a)
			return redirect(c, "/alerts")
		case isValidation(err):
			msg = storeMessage(err)
		default:
			return workspaceError(err)
		}
	}
	if !loaded {
		rf = h.loadRuleFolders(c)
	}
	form = keptRuleForm(form)
	form.Error = msg
	showAt(c, form.PostAction())
	return h.renderAlerts(c, http.StatusUnprocessableEntity, views.AlertsPage{Form: form}, rf)
}

// ownRule finds one of the analyst's rules; another's is 404.
func (h *Handler) ownRule(c *echo.Context, id int64) (store.Rule, error) {
	rules, err := h.store.Rules(c.Request().Context(), h.analyst(c))
	if err != nil {
		return store.Rule{}, workspaceError(err)
	}
	for _, r := range rules {
		if r.ID == id {
			return r, nil
		}
	}
	return store.Rule{}, echo.ErrNotFound
}

// readRuleForm reads the rule form as sent.
func readRuleForm(c *echo.Context) views.RuleForm {
	return views.RuleForm{
		Scope: c.FormValue("scope"), Business: strings.TrimSpace(c.FormValue("business")),
		Folder: strings.TrimSpace(c.FormValue("folder")),
		Score:  c.FormValue("score"), Condition: c.FormValue("condition"),
		Threshold: strings.TrimSpace(c.FormValue("threshold")),
		Category:  strings.TrimSpace(c.FormValue("category")), Steady: strings.TrimSpace(c.FormValue("steady")),
	}
}

// keptRuleForm is the form as typed, clipped for showing it again.
func keptRuleForm(form views.RuleForm) views.RuleForm {
	form.Business, form.Folder = views.Clip(form.Business, 40), views.Clip(form.Folder, 40)
	form.Threshold = views.Clip(form.Threshold, maxThresholdLen)
	form.Category, form.Steady = views.Clip(form.Category, 20), views.Clip(form.Steady, maxThresholdLen)
	return form
}

// readAccountRule reads a rule on the team's accounts: its condition and,
// but for over limit, a percentage.
func readAccountRule(f views.RuleForm, spec *store.RuleSpec) string {
	spec.Score = ""
	switch spec.Condition {
	case store.OverLimit:
		return ""
	case store.Over90Above, store.UtilAbove:
		v, ok := parseThreshold(strings.TrimSuffix(strings.TrimSpace(f.Threshold), "%"))
		if !ok {
			return "The threshold is a percentage, such as 25 or 87.5."
		}
		spec.Threshold = v
		return ""
	}
	return "For the team's accounts, choose when the rule fires: balance over the limit, share over 90 days above, or utilisation above."
}

// checkRuleForm reads the form into a rule and checks what only the
// service knows: that the folder is the analyst's, and that the business
// exists. rf is the folder list when it was read for the check.
func (h *Handler) checkRuleForm(c *echo.Context, form views.RuleForm) (spec store.RuleSpec, msg string, rf ruleFolders, loaded bool, err error) {
	spec, msg = readRule(form)
	if msg != "" {
		return spec, msg, rf, false, nil
	}
	switch spec.Scope {
	case store.ScopeFolder:
		rf, loaded = h.loadRuleFolders(c), true
		if err := expiredAmong(rf.err); err != nil {
			return spec, "", rf, loaded, err
		}
		spec.TargetName, msg = folderTarget(rf, spec.FolderID)
	case store.ScopeBusiness:
		spec.TargetName, msg, err = h.businessTarget(c, spec.BusinessID)
	}
	return spec, msg, rf, loaded, err
}

// businessTarget names the business of a rule, or says why no rule can be
// set on it. A business on the watch list or in a report read lately is
// known without a call; any other is looked up once (its industry codes,
// which its report's header reads anyway), within the hourly budget, so
// a rule on a business the service does not know (999999) is refused
// instead of waiting for alerts that never come.
func (h *Handler) businessTarget(c *echo.Context, id int32) (name, msg string, err error) {
	if name := h.watchedName(c, id); name != "" {
		return name, "", nil
	}
	var lookErr error
	h.load(c, one("business", func(ctx context.Context, src Source) {
		_, lookErr = src.NAICSCodes(ctx, upstream.ByID(id))
	}))
	biz := strconv.FormatInt(int64(id), 10)
	switch {
	case lookErr == nil:
		return h.watchedName(c, id), "", nil
	case errors.Is(lookErr, upstream.ErrSessionExpired):
		return "", "", lookErr
	case errors.Is(lookErr, upstream.ErrNotFound):
		return "", "The credit-risk service has no business " + biz + ", so no rule was saved. Check the id (it is the number in a report's address, such as 1001).", nil
	case outOfRequests(lookErr):
		return "", "Business " + biz + " could not be checked: your account has no requests left this hour. No rule was saved; try again once the limit renews.", nil
	}
	return "", "Business " + biz + " could not be checked just now, so no rule was saved. Try again in a moment.", nil
}
