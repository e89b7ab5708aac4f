package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
)

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
