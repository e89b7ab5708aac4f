package handlers

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/roles"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// deciderAuthority is the authority within which user decides others'
// requests: 0 for who may not decide.
func (h *Handler) deciderAuthority(user string) float64 {
	as := h.roles.Of(user)
	if !as.Role.May(roles.Decide) {
		return 0
	}
	return float64(as.Authority)
}

// waitingForMe is how many requests wait for the signed-in user's
// decision, read only for deciders (once per page: see counts). On a page
// that loaded service data (ld) the count is kept under the team's version
// (every decision moves it), so a warm report does not count again. A
// failing database hides the count instead of failing the page.
func (h *Handler) waitingForMe(c *echo.Context, ld *loaded) int {
	n := 0
	s, ok := session.Of(c)
	if ok {
		if authority := h.deciderAuthority(s.User); authority > 0 {
			ts := teamState{a: h.analyst(c)}
			if ld != nil {
				ts = h.teamOf(c, ld)
			}
			arg := strconv.FormatFloat(authority, 'g', -1, 64) + " " + ts.a.User
			var err error
			n, err = keptLatest(h.wsCtx(c), h, ts, "decisions waiting", arg, func(ctx context.Context) (int, int, error) {
				n, err := h.store.CountWaiting(ctx, ts.a, authority)
				return n, len(arg), err
			})
			if err != nil {
				h.log.Warn("decisions waiting not counted", "request_id", middleware.RequestID(c), "err", err)
				n = 0
			}
		}
	}
	return n
}

// showDecisions is /decisions: waiting for me, mine, the team's recent.
func (h *Handler) showDecisions(c *echo.Context) error {
	user := session.Must(c).User
	authority := h.deciderAuthority(user)
	l, err := h.store.Requests(c.Request().Context(), h.analyst(c), authority)
	if err != nil {
		return decisionsError(err)
	}
	page := views.DecisionsPage{Decider: authority > 0, Authority: views.Amount(authority),
		Waiting: views.NewDecisionRows(l.Waiting), Mine: views.NewDecisionRows(l.Mine), Recent: views.NewDecisionRows(l.Recent),
		Max: store.MaxRequestList}
	page.Base = h.base(c, nil, "Decisions", views.NavAccounts)
	return h.render(c, http.StatusOK, templates.Decisions(page))
}

// outcomes are the signed-in analyst's requests decided by another since
// they last marked them seen, for their home page; nil when none, or when
// the store cannot say (logged: the rest of the page still shows).
func (h *Handler) outcomes(c *echo.Context) *views.Outcomes {
	if h.store == nil {
		return nil
	}
	ctx, a := h.wsCtx(c), h.analyst(c)
	seen, err := h.store.OutcomesSeen(ctx, a)
	if err != nil {
		h.logWorkspace(c, "outcomes seen", err)
		return nil
	}
	rs, total, err := h.store.OutcomesSince(ctx, a, seen, store.MaxOutcomes)
	if err != nil {
		h.logWorkspace(c, "outcomes", err)
		return nil
	}
	return views.NewOutcomes(rs, total)
}

// submitOutcomesSeen marks the outcomes the home page showed seen, up to
// the newest it showed: one decided after the page was drawn stays.
func (h *Handler) submitOutcomesSeen(c *echo.Context) error {
	us, err := strconv.ParseInt(c.FormValue("upto"), 10, 64)
	if err != nil || us <= 0 {
		return badInput("The form did not say which outcomes were shown; open the home page again.")
	}
	a := h.analyst(c)
	if err := h.store.MarkOutcomesSeen(c.Request().Context(), a, time.UnixMicro(us)); err != nil {
		return workspaceError(err)
	}
	h.touched(a)
	return redirect(c, "/")
}
