package handlers

import (
	"bytes"
	"context"
	"errors"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/policy"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Validation on the team's own history (issue 45): the team's month-end
// ledgers and the Risk it knows at each month-end, read from the store;
// the figures from internal/policy. Nothing here writes.

// validationPath is the page; its two downloads sit beside it.
const validationPath = "/policy/validation"

// teamHistory is the team's history as the validation reads it.
type teamHistory struct {
	h *policy.History
	// gap names the month missing before the months read ("" when
	// none is).
	gap string
	// riskKnown is how many linked businesses of the newest ledger have
	// a Risk the team knows, of linked.
	riskKnown, linked int
}

// readTeamHistory reads the newest run of consecutive month-end ledgers
// (the last ledger of each month), their accounts and the Risk the team
// knew of each linked business at each month-end. Limits are not read:
// they come from the team's dated decisions, which the validation does
// not replay yet, so utilisation counts as missing. nil when the team
// has no ledger.
func (h *Handler) readTeamHistory(ctx context.Context, a store.Analyst) (*teamHistory, error) {
	dates, err := h.store.LedgerDates(ctx, a) // newest first
	if err != nil || len(dates) == 0 {
		return nil, err
	}
	var months []int
	var at []string // the ledger read for each month
	th := &teamHistory{}
	for _, d := range dates {
		t, err := time.Parse(store.DateLayout, d)
		if err != nil {
			continue
		}
		m := t.Year()*100 + int(t.Month())
		if len(months) > 0 {
			prev := months[len(months)-1]
			if m == prev {
				continue // an earlier ledger of a month already read
			}
			if want := monthBefore(prev); m != want {
				th.gap = views.MonthName(want)
				break
			}
		}
		months, at = append(months, m), append(at, d)
	}
	// Oldest first.
	for i, j := 0, len(months)-1; i < j; i, j = i+1, j-1 {
		months[i], months[j] = months[j], months[i]
		at[i], at[j] = at[j], at[i]
	}
	book := policy.NewBook(months)
	for i, d := range at {
		accts, err := h.store.Accounts(ctx, a, d)
		if err != nil {
			return nil, err
		}
		risk, err := h.store.RiskAsOf(ctx, a, months[i])
		if err != nil {
			return nil, err
		}
		// In account order: the store lists them in none, and the
		// bootstrap draws accounts in the order first met.
		slices.SortFunc(accts, func(x, y store.Account) int { return strings.Compare(x.Account, y.Account) })
		for _, ac := range accts {
			l := policy.Blank()
			l.Balance, l.Current, l.Days1to30, l.Days31to60, l.Days61to90, l.Over90 = ac.Balance, ac.Current, ac.Days1to30, ac.Days31to60, ac.Days61to90, ac.DaysOver90
			if v, ok := risk[ac.BusinessID]; ok && ac.BusinessID != 0 && v >= 1 && v <= 10 {
				l.Risk = int8(math.Round(v))
			}
			if i == len(at)-1 && ac.BusinessID != 0 {
				th.linked++
				if l.Risk != policy.Missing {
					th.riskKnown++
				}
			}
			book.Add(i, ac.Account, l)
		}
	}
	th.h = book.History()
	return th, h.readFilings(ctx, a, th.h)
}

// readFilings marks the month of each filing in force (defaults.go) on
// the accounts linked to its business: from that month-end on, they are
// in default.
func (h *Handler) readFilings(ctx context.Context, a store.Analyst, hist *policy.History) error {
	ds, err := h.store.Defaults(ctx, a)
	if err != nil || len(ds) == 0 || len(hist.Months) == 0 {
		return err
	}
	filed := map[int32]int{}
	for _, d := range ds {
		if d.InForce() {
			filed[d.BusinessID] = d.Published.Year()*100 + int(d.Published.Month())
		}
	}
	accts, err := h.store.Accounts(ctx, a, "")
	if err != nil {
		return err
	}
	business := make(map[string]int32, len(accts))
	for _, ac := range accts {
		business[ac.Account] = ac.BusinessID
	}
	hist.Filed = make([]int, len(hist.Accounts))
	first := hist.Months[0]
	for i, acct := range hist.Accounts {
		hist.Filed[i] = -1
		if m, ok := filed[business[acct]]; ok && business[acct] != 0 {
			// Before the history's first month counts from its first.
			hist.Filed[i] = max(monthsBetween(first, m), 0)
		}
	}
	return nil
}

// monthsBetween counts the months from YYYYMM a to YYYYMM b.
func monthsBetween(a, b int) int { return (b/100*12 + b%100) - (a/100*12 + a%100) }

// monthBefore is the YYYYMM before m.
func monthBefore(m int) int {
	if m%100 == 1 {
		return m - 100 + 11
	}
	return m - 1
}

// validate reads the history and validates the standard models on it;
// the report is nil, with th, when the history is too short.
func (h *Handler) validate(ctx context.Context, a store.Analyst) (*teamHistory, *policy.Report, error) {
	th, err := h.readTeamHistory(ctx, a)
	if err != nil || th == nil {
		return th, nil, err
	}
	rep, err := policy.Validate(th.h, policy.StandardDefinition, policy.StandardModels())
	if errors.Is(err, policy.ErrShortHistory) {
		return th, nil, nil
	}
	return th, rep, err
}

// showPolicyValidation shows each model's figures side by side, in
// words.
func (h *Handler) showPolicyValidation(c *echo.Context) error {
	th, rep, err := h.validate(c.Request().Context(), h.analyst(c))
	if err != nil {
		return accountsError(err)
	}
	def := policy.StandardDefinition
	page := views.PolicyValidationPage{Demo: h.sampleLedgers,
		Definition: "an account is in default at a month-end when more than " + views.Percent(def.Over90*100) +
			" of its balance is over 90 days past due, or its business has filed for bankruptcy; each month-end is judged by whether a default follows within the next " +
			strconv.Itoa(def.Horizon) + " month-ends."}
	page.Base = h.base(c, nil, "Policy validation", views.NavAccounts)
	switch {
	case th == nil:
		page.Empty = "The team has no ledger yet."
	case rep == nil:
		page.Empty = "Validation needs at least " + strconv.Itoa(def.Horizon+1) + " month-end ledgers in a row (a month-end and the " +
			strconv.Itoa(def.Horizon) + " after it); the team has " + views.Plural(len(th.h.Months), "month") + " in a row."
	}
	if th != nil {
		page.Gap, page.RiskKnown, page.Linked = th.gap, th.riskKnown, th.linked
		if n := len(th.h.Months); n > 0 {
			page.Ledgers = views.MonthName(th.h.Months[0]) + " to " + views.MonthName(th.h.Months[n-1]) + " (" + views.Plural(n, "month-end") + ")"
		}
	}
	if rep != nil {
		n := len(rep.Scored)
		page.Scored = views.MonthName(rep.Scored[0]) + " to " + views.MonthName(rep.Scored[n-1]) + " (" + views.Plural(n, "month-end") + ")"
		for _, r := range rep.Results {
			page.Models = append(page.Models, views.NewValidationModel(r))
		}
	}
	return h.render(c, http.StatusOK, templates.PolicyValidation(page))
}

// exportValidation writes validation.csv, or with scores
// validation/scores.csv; both empty but for the header without a
// history long enough.
func (h *Handler) exportValidation(scores bool) echo.HandlerFunc {
	return func(c *echo.Context) error {
		th, rep, err := h.validate(c.Request().Context(), h.analyst(c))
		if err != nil {
			return accountsError(err)
		}
		if rep == nil {
			rep = &policy.Report{}
		}
		var b bytes.Buffer
		name := "validation.csv"
		if scores {
			name = "validation-scores.csv"
			var accounts []string
			if th != nil {
				accounts = th.h.Accounts
			}
			err = policy.WriteScores(&b, rep, accounts, store.CSVCell)
		} else {
			err = policy.WriteSummary(&b, rep)
		}
		if err != nil {
			return err
		}
		c.Response().Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
		return c.Blob(http.StatusOK, "text/csv; charset=utf-8", b.Bytes())
	}
}
