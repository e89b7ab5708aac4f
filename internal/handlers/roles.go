package handlers

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/roles"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/views"
)

// postActions names the action of each signed-in route that is not a GET,
// where it is not roles.ChangeWorkspace, the action of every other one
// (watch, notes, rules, alerts read, dated copies, deleting the
// workspace). A route added without a row here is therefore refused to
// auditors, never let through by omission. Keys are route templates.
var postActions = map[string]roles.Action{
	// Refresh forgets this user's cached copies so the page reads them
	// again: a read, which an auditor needs as much as anyone.
	"/refresh": roles.Read,
	// Choosing a trade provider says whose customer ids this user's
	// service session reads: without it an auditor of a trade provider
	// could not open a customer's report. It changes nothing of the team's.
	tradeProviderPath: roles.Read,
	// A token is its member's own key: an auditor makes read tokens (the
	// handler refuses them write ones) and revokes them.
	views.TokensPath:                 roles.Read,
	views.TokensPath + "/:id/revoke": roles.Read,
	// The columns of /accounts are the member's own view of the record:
	// an auditor reads with the columns they chose too.
	"/accounts/columns": roles.Read,
	// Limit requests and their decisions (decisions.go): the handlers add
	// authority, four eyes and the requester's own withdrawal.
	"/businesses/:id/limit-requests": roles.RequestLimit,
	"/decisions/:id/approve":         roles.Decide,
	"/decisions/:id/decline":         roles.Decide,
	"/decisions/:id/withdraw":        roles.RequestLimit,
	"/accounts/:account/review":      roles.ChangeAccounts,
	// The supplier category divergence rules follow is the team's.
	supplierCategoryPath:       roles.ChangeAccounts,
	"/accounts/:account/owner": roles.ChangeAccounts,
	"/accounts/:account/link":  roles.ChangeAccounts,
	lookupsPath:                roles.ChangeAccounts,
	"/worklist/owner":          roles.ChangeAccounts,
	// The account's record (accounts_record.go): the ERP's limits become
	// limit requests, under the requester's authority and four eyes.
	"/accounts/new":                          roles.ChangeAccounts,
	"/accounts/erp-limits":                   roles.RequestLimit,
	"/accounts/ledgers/versions/:id/restore": roles.ChangeAccounts,
	// Credit applications (applications.go): inviting, the public link,
	// matching and the report are the team's accounts; deciding asks a
	// limit, under the decider's authority and four eyes.
	"/applications":            roles.ChangeAccounts,
	"/applications/link":       roles.ChangeAccounts,
	"/applications/:id/match":  roles.ChangeAccounts,
	"/applications/:id/report": roles.ChangeAccounts,
	"/applications/:id/revoke": roles.ChangeAccounts,
	"/applications/:id/decide": roles.RequestLimit,
	// Limits and holds back to the ERP (limits_export.go): recording an
	// export changes no decision, only what the team knows the ERP holds;
	// the over-limit threshold is the team's policy.
	views.ERPExportPath + ".csv": roles.ChangeAccounts,
	"/limits/threshold":          roles.SetPolicy,
	// Where the team's events go (webhooks.go): managers only.
	webhooksPath:                            roles.ManageWebhooks,
	webhooksPath + "/:id/remove":            roles.ManageWebhooks,
	webhooksPath + "/deliveries/:id/replay": roles.ManageWebhooks,
	// Clearing a default is a manager's decision; the loss given default
	// is the team's policy.
	views.DefaultsPath + "/:id/clear":           roles.Decide,
	views.DefaultsPath + "/lgd":                 roles.SetPolicy,
	views.PolicyPath + "/versions":              roles.SetPolicy,
	views.PolicyPath + "/versions/:id/activate": roles.SetPolicy,
	// The team's members (team.go): the store adds the four eyes.
	"/team/members":             roles.ManageTeam,
	"/team/changes/:id/approve": roles.ManageTeam,
	"/team/changes/:id/decline": roles.ManageTeam,
}

// actionOf is the action a request asks for: reading for GET and HEAD,
// else its route's row in postActions.
func actionOf(c *echo.Context) roles.Action {
	switch c.Request().Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return roles.Read
	}
	if a, ok := postActions[c.Path()]; ok {
		return a
	}
	return roles.ChangeWorkspace
}

// errRefused is a request the user's role does not allow.
var errRefused = errors.New("handlers: refused by role")

// guardRoles refuses, centrally, every request of the signed-in pages that
// the user's role does not allow: for an auditor, every one that changes
// something. Sign-out is outside the signed-in group and always works.
// Routes that need more than a role (an authority, four eyes) check that
// in their handlers with may.
func (h *Handler) guardRoles(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if err := h.may(c, actionOf(c)); err != nil {
			return err
		}
		return next(c)
	}
}

// may is nil when the signed-in user's role allows act, else the refusal:
// a 403 page that names the rule. The refusal is logged with who and what.
func (h *Handler) may(c *echo.Context, act roles.Action) error {
	s := session.Must(c)
	a := h.rolesNow(c).Of(s.User)
	if a.Role.May(act) {
		return nil
	}
	h.log.Info("refused by role", "request_id", middleware.RequestID(c), "user", s.User,
		"role", string(a.Role), "action", string(act), "method", c.Request().Method, "path", c.Request().URL.Path)
	if act != roles.Read {
		// The refusal is the team's record too: who tried what, and the rule.
		// The path as sent (escaped), so a line feed typed into it stays
		// %0A; past a few a minute, refusals are counted (store.AppendRefusal).
		if _, err := h.store.AppendRefusal(c.Request().Context(), h.service, store.AuditChange{Actor: s.User,
			NewValue: string(act) + " " + views.Clip(c.Request().URL.EscapedPath(), 200), Reason: a.Role.Rule(act)}); err != nil {
			return auditError(err)
		}
	}
	return &shownProblem{err: fmt.Errorf("%w: %s may not %s", errRefused, a.Role, act), problem: views.Problem{
		Status: http.StatusForbidden,
		Title:  "Not allowed for your role",
		Message: fmt.Sprintf("You are signed in as %s, %s of this team (%s). %s Nothing was changed.",
			s.User, article(a.Role), h.rolesSource(), a.Role.Rule(act)),
		ActionURL: "/audit", ActionText: "Read the team's audit trail",
	}}
}

// rolesSource says where the team's roles come from, for a refusal: the
// demo's own roles (listed on its sign-in page) or the deployment's
// configuration, which a demo visitor has never seen.
func (h *Handler) rolesSource() string {
	if h.demo != nil {
		return "the demo's roles, listed on the sign-in page and on /team"
	}
	return "listed on /team"
}

// article names the role with its article: "an auditor", "a manager".
func article(r roles.Role) string {
	if r == roles.Analyst || r == roles.Auditor {
		return "an " + string(r)
	}
	return "a " + string(r)
}
