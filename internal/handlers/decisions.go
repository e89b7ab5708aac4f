package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"creditdash/internal/amount"
	"creditdash/internal/credit"
	"creditdash/internal/middleware"
	"creditdash/internal/roles"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// evidenceTabs are the report tabs a request keeps a dated copy of.
var evidenceTabs = []views.BusinessTab{views.TabOverview, views.TabPayments}

// refuse answers 403 with the rule named, and logs the refusal in the
// team's audit trail (and the server log) with who and what was asked.
func (h *Handler) refuse(c *echo.Context, asked, account string, business int32, rule string) error {
	a := h.analyst(c)
	h.log.Info("refused by rule", "request_id", middleware.RequestID(c), "user", a.User, "asked", asked, "rule", rule)
	if _, err := h.store.AppendRefusal(c.Request().Context(), h.service, store.AuditChange{Actor: a.User,
		Account: account, BusinessID: business, NewValue: asked, Reason: rule}); err != nil {
		return auditError(err)
	}
	return &shownProblem{err: fmt.Errorf("%w: %s", errRefused, rule), problem: views.Problem{
		Status: http.StatusForbidden, Title: "Not allowed",
		Message:   rule + " Nothing was changed; the refusal is logged in the team's audit trail.",
		ActionURL: "/audit", ActionText: "Read the team's audit trail",
	}}
}

// decisionsError is a failure of the decisions' database as a page.
func decisionsError(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return echo.ErrNotFound
	case errors.Is(err, store.ErrRequestsFull):
		return badInput("%s", storeMessage(err))
	}
	return accountsError(err)
}

// readRequestForm reads the posted request into form and returns the
// amount; a field refused is named in the form.
func readRequestForm(c *echo.Context, form *views.RequestForm) (limit float64, ok bool) {
	form.Account = views.Clip(strings.TrimSpace(c.FormValue("account")), 80)
	rawAmount := strings.TrimSpace(c.FormValue("amount"))
	form.Amount = views.Clip(rawAmount, 40)
	form.Reason = strings.TrimSpace(c.FormValue("reason"))
	if utf8.RuneCountInString(form.Reason) > store.MaxRequestReasonLen+100 {
		form.Reason = string([]rune(form.Reason)[:store.MaxRequestReasonLen+100]) // kept to edit, refused below
	}
	form.MonthlySales, form.MonthsAllowed, form.LossBudget = views.Clip(c.FormValue("monthly_sales"), 40),
		views.Clip(c.FormValue("months_allowed"), 40), views.Clip(c.FormValue("loss_budget"), 40)
	if form.Account == "" {
		form.AccountError = "Choose the account the limit is for."
	}
	v, _, err := amount.Typed(rawAmount)
	switch {
	case rawAmount == "":
		form.AmountError = "Give the limit you ask for, such as 25,000."
	case err != nil:
		form.AmountError = sentence(err.Error())
	case store.CheckAmount(v, false) != nil:
		form.AmountError = "Give an amount from 0 to 10,000,000,000,000."
	}
	switch n := utf8.RuneCountInString(form.Reason); {
	case n == 0:
		form.ReasonError = "Say why the limit should be this amount."
	case n > store.MaxRequestReasonLen:
		form.ReasonError = fmt.Sprintf("The reason is %s characters; keep it to %s.", strconv.Itoa(n), "2,000")
	}
	return v, form.AccountError == "" && form.AmountError == "" && form.ReasonError == ""
}

// submitLimitRequest asks for a limit for one of the team's accounts of
// the business, keeping dated copies of the report's overview and payments
// and the calculator's result as its evidence, then shows the decision.
func (h *Handler) submitLimitRequest(c *echo.Context) error {
	id, err := businessID(c)
	if err != nil {
		return err
	}
	a := h.analyst(c)
	accts, err := h.store.AccountsOfBusiness(c.Request().Context(), a, id)
	if err != nil {
		return accountsError(err)
	}
	page := views.LimitRequestPage{Name: "Business " + strconv.Itoa(int(id))}
	form := &page.Form
	page.ReportURL = views.BusinessPath(upstream.ByID(id), views.TabOverview)
	page.CalcURL = page.ReportURL + "/limit"
	form.Action = page.ReportURL + "/limit-requests"
	for _, acc := range accts {
		form.Accounts = append(form.Accounts, views.Choice{Value: acc.Account, Label: views.AccountLabel(acc.Account, acc.Name)})
		page.Name = acc.Name
	}
	amount, ok := readRequestForm(c, form)
	if form.Account != "" && !hasAccount(accts, form.Account) {
		return h.refuse(c, "limit-request for "+views.Clip(form.Account, 40), "", id,
			"A limit request is only for an account this team's ledger links to the business; “"+views.Clip(form.Account, 40)+"” is not one.")
	}
	var lp views.LimitPage
	calc := readLimitForm(c.FormValue, &lp)
	if calc.bad {
		form.Error = "The calculator's inputs sent with the request are not amounts; open the calculator again."
		ok = false
	}
	page.Base = h.base(c, nil, page.Name+" · Request a limit", views.NavAccounts)
	if !ok {
		return h.render(c, http.StatusUnprocessableEntity, templates.LimitRequest(page))
	}
	spec := store.RequestSpec{Account: form.Account, Amount: amount, Reason: form.Reason,
		Authority: float64(h.rolesNow(c).Of(a.User).Authority)}
	if spec.Policy, err = h.requestPolicy(c, form.Account); err != nil {
		return decisionsError(err)
	}
	if calc.given {
		if spec.Calculator, err = h.calculatorText(c, id, calc.in); err != nil {
			return err
		}
	}
	for _, tab := range evidenceTabs {
		d, ld, err := h.loadTab(c, tab, id, func(string) string { return "" })
		if err != nil {
			if outOfRequests(err) {
				return badInput("The report's %s could not be loaded within the hourly budget, so no evidence could be kept and nothing was requested. Try again later.", tab.Label())
			}
			return err
		}
		data, err := json.Marshal(d.kept())
		if err != nil {
			return err
		}
		fetched := ld.rd.Report().FetchedAt
		if fetched.IsZero() {
			fetched = h.now()
		}
		spec.Evidence = append(spec.Evidence, store.Evidence{Tab: tab.Name(), Fetched: fetched, Data: data})
	}
	spec.Evidence = append(spec.Evidence, h.extraEvidence(c, a, id)...)
	r, err := h.store.RequestLimit(c.Request().Context(), a, spec)
	var ve *store.ValidationError
	switch {
	case errors.As(err, &ve) || errors.Is(err, store.ErrRequestsFull):
		form.Error = storeMessage(err)
		return h.render(c, http.StatusUnprocessableEntity, templates.LimitRequest(page))
	case err != nil:
		return decisionsError(err)
	}
	return redirect(c, views.DecisionPath(r.ID))
}

// hasAccount reports whether the list holds the account.
func hasAccount(accts []store.Account, account string) bool {
	for _, acc := range accts {
		if acc.Account == account {
			return true
		}
	}
	return false
}

// calculatorText is the calculator's inputs and result for the business
// as a request keeps them: one line each.
func (h *Handler) calculatorText(c *echo.Context, id int32, in credit.LimitInputs) (string, error) {
	l := &limitLoad{}
	h.load(c, l.sections(upstream.ByID(id))...)
	if err := l.hd.pageError(l.histErr, l.stmtsErr); err != nil {
		return "", err
	}
	band, z := 0, (*float64)(nil)
	if l.histErr == nil {
		band, z = credit.LatestScores(l.hist)
	}
	st := credit.Statement{Problem: "the statements could not be loaded"}
	if l.stmtsErr == nil {
		st = views.LatestStatement(l.stmts)
	}
	r := views.NewLimitResult(credit.Calculate(in, band, z, credit.SheetCap(st)), band)
	lines := []string{fmt.Sprintf("Inputs: monthly sales %s, months allowed %s, loss budget %s",
		plainAmount(in.MonthlySales), plainAmount(in.MonthsAllowed), plainAmount(in.LossBudget))}
	for _, cp := range r.Caps {
		line := cp.Name + ": " + views.CapValue(cp)
		if cp.Binds {
			line += " (binds)"
		}
		lines = append(lines, line+" — "+cp.Rationale)
	}
	lines = append(lines, "Recommended limit: "+r.Recommended+" ("+r.Risk+")")
	lines = append(lines, r.Warnings...)
	return strings.Join(lines, "\n"), nil
}

// deciderAuthority is the authority within which user decides others'
// requests: 0 for who may not decide.
func (h *Handler) deciderAuthority(c *echo.Context, user string) float64 {
	as := h.rolesNow(c).Of(user)
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
		if authority := h.deciderAuthority(c, s.User); authority > 0 {
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
	authority := h.deciderAuthority(c, user)
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
