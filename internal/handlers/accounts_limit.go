package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/amount"
	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// limitForm is the calculator's inputs as read and checked.
type limitForm struct {
	in      credit.LimitInputs
	given   bool // any input typed
	bad     bool
	account string
}

// readLimitForm reads the inputs from get (the query or the posted form)
// into the page, naming each refused field there.
func readLimitForm(get func(string) string, page *views.LimitPage) limitForm {
	var f limitForm
	f.account = strings.TrimSpace(get("account"))
	for _, fld := range []struct {
		name  string
		typed *string
		msg   *string
		dst   *float64
	}{
		{"monthly_sales", &page.MonthlySales, &page.SalesError, &f.in.MonthlySales},
		{"months_allowed", &page.MonthsAllowed, &page.MonthsError, &f.in.MonthsAllowed},
		{"loss_budget", &page.LossBudget, &page.BudgetError, &f.in.LossBudget},
	} {
		raw := strings.TrimSpace(get(fld.name))
		*fld.typed = views.Clip(raw, 40)
		if raw == "" {
			continue
		}
		f.given = true
		v, _, err := amount.Typed(raw)
		switch {
		case err != nil:
			*fld.msg = sentence(err.Error())
		case v < 0:
			*fld.msg = "Give an amount of zero or more."
		case fld.name == "months_allowed" && v > 120:
			*fld.msg = "Give at most 120 months."
		}
		if *fld.msg != "" {
			f.bad = true
			continue
		}
		*fld.dst = v
	}
	return f
}

// limitLoad is the calculator's service calls: the header, the scores
// (the overview's own copy) and the latest statement.
type limitLoad struct {
	hd                headerData
	hist              []upstream.CreditScoreHistoryRow
	stmts             []upstream.AnnualFinancials
	histErr, stmtsErr error
}

func (l *limitLoad) sections(ref upstream.BusinessRef) []section {
	return []section{l.hd.section(ref),
		one("scores", func(ctx context.Context, src Source) {
			l.hist, l.histErr = src.CreditScoreHistory(ctx, ref, time.Time{}, time.Time{})
		}),
		one("statements", func(ctx context.Context, src Source) {
			l.stmts, l.stmtsErr = src.LatestAnnualStatements(ctx, ref, upstream.StatementsQuery{Count: 1, SortOrder: upstream.SortDescending})
		}),
	}
}

// showLimit is the calculator: GET, so a result can be linked.
func (h *Handler) showLimit(c *echo.Context, ref upstream.BusinessRef) error {
	return h.limitPage(c, ref, c.QueryParam, false)
}

// submitLimit saves the inputs for the team's account (CSRF-checked), so
// its implied limit follows them; refused inputs come back with the
// page and what was typed (422).
func (h *Handler) submitLimit(c *echo.Context, ref upstream.BusinessRef) error {
	return h.limitPage(c, ref, c.FormValue, true)
}

// limitPage loads, checks and answers both.
func (h *Handler) limitPage(c *echo.Context, ref upstream.BusinessRef, get func(string) string, save bool) error {
	l := &limitLoad{}
	ld := h.load(c, l.sections(ref)...)
	if err := l.hd.pageError(l.histErr, l.stmtsErr); err != nil {
		return err
	}
	if l.histErr == nil {
		h.recordTeamScores(c, ld, ref, &l.hd, l.hist) // fresh scores arrive here too
	}
	if l.stmtsErr == nil {
		h.recordStatementYear(c, ref, &l.hd, l.stmts)
	}
	id, name := reportBusiness(ref, &l.hd)
	page := views.LimitPage{Name: name, ReportURL: views.BusinessPath(ref, views.TabOverview), PDNote: credit.PDAssumption}
	page.Action = page.ReportURL + "/limit"
	if id != 0 {
		page.RequestAction = views.BusinessPath(upstream.ByID(id), views.TabOverview) + "/limit-requests"
	}
	page.Base = h.base(c, ld, name+" · Limit calculator", views.NavAccounts)
	f := readLimitForm(get, &page)
	a := h.analyst(c)
	var accts []store.Account
	if id != 0 {
		var err error
		if accts, err = h.store.AccountsOfBusiness(h.wsCtx(c), a, id); err != nil {
			return accountsError(err)
		}
	}
	var chosen *store.Account
	for i, acc := range accts {
		page.Accounts = append(page.Accounts, views.Choice{Value: acc.Account, Label: views.AccountLabel(acc.Account, acc.Name)})
		if chosen == nil || acc.Account == f.account {
			chosen = &accts[i]
		}
	}
	if chosen != nil {
		page.Account = chosen.Account
		if !f.given && !save && chosen.Inputs != nil {
			in := chosen.Inputs
			f.in, f.given = credit.LimitInputs{MonthlySales: in.MonthlySales, MonthsAllowed: in.MonthsAllowed, LossBudget: in.LossBudget}, true
			page.MonthlySales, page.MonthsAllowed, page.LossBudget = plainAmount(in.MonthlySales), plainAmount(in.MonthsAllowed), plainAmount(in.LossBudget)
			page.SavedNote = "The inputs saved for account " + chosen.Account + " by " + in.SavedBy + " on " + views.Date(in.SavedAt) + "."
		}
	}
	if page.MonthsAllowed == "" && !f.bad {
		var terms *int
		if chosen != nil {
			terms = chosen.Terms
		}
		f.in.MonthsAllowed = credit.DefaultMonths(terms)
		page.MonthsAllowed = plainAmount(f.in.MonthsAllowed)
	}
	page.ScoresProblem, page.StatementsProblem = h.sectionProblem(c, l.histErr), h.sectionProblem(c, l.stmtsErr)
	band, z := 0, (*float64)(nil)
	if l.histErr == nil {
		band, z = credit.LatestScores(l.hist)
	}
	st := credit.Statement{Problem: "the statements could not be loaded"}
	if l.stmtsErr == nil {
		st = views.LatestStatement(l.stmts)
	}
	sheet := credit.SheetCap(st)
	if f.given && !f.bad {
		calc := credit.Calculate(f.in, band, z, sheet)
		page.Result = views.NewLimitResult(calc, band)
		if chosen != nil {
			var err error
			if page.Policy, err = h.policyLine(c, chosen.Account, calc, f.in.MonthlySales); err != nil {
				return err
			}
		}
	}
	status := http.StatusOK
	if f.bad {
		status = http.StatusUnprocessableEntity
	}
	if save && !f.bad {
		if chosen == nil || (f.account != "" && f.account != chosen.Account) {
			return badInput("The team has no account of this business to save the inputs for; import a ledger that links one.")
		}
		in := store.LimitInputs{MonthlySales: f.in.MonthlySales, MonthsAllowed: f.in.MonthsAllowed, LossBudget: f.in.LossBudget}
		if sheet.Available {
			in.SheetCap = &sheet.Value
		}
		if err := h.store.SaveLimitInputs(c.Request().Context(), a, chosen.Account, in); err != nil {
			return accountsError(err)
		}
		q := url.Values{"account": {chosen.Account}, "saved": {"1"}}
		return redirect(c, page.Action+"?"+q.Encode())
	}
	if c.QueryParam("saved") != "" && page.SavedNote != "" {
		page.Flash = "Inputs saved: the account's implied limit now follows them."
	}
	return h.render(c, status, templates.Limit(page))
}

// policyLine is the credit policy's limit for account from the figures
// on the page, beside the caps; nil when no policy is in force. When the
// inputs saved for the account give another policy limit, it says a
// request is held against that one.
func (h *Handler) policyLine(c *echo.Context, account string, calc credit.Limit, sales float64) (*views.PolicyLimitLine, error) {
	rule, err := h.activePolicy(c)
	if err != nil || rule == nil {
		return nil, err
	}
	fig, err := h.accountFigures(c, account)
	if err != nil {
		return nil, err
	}
	line := views.NewPolicyLimitLine(rule.limit(fig, calc, sales))
	if saved := views.NewPolicyLimitLine(rule.limit(fig, fig.Calc, credit.SavedSales(fig))); saved.Limit != line.Limit {
		line.Saved = "A limit request is held against the policy limit of the inputs saved for account " + account +
			" (" + saved.Limit + "): save these inputs first to request against this one."
		if fig.Inputs == nil {
			line.Saved = "No inputs are saved for account " + account + ", so a limit request is held against no policy limit and waits for a second person: save these inputs first."
		}
	}
	return line, nil
}

// plainAmount writes a saved input back into its field, without ".00".
func plainAmount(v float64) string { return strings.TrimSuffix(views.Decimal(v, 2), ".00") }
