// Package validation validates the team's credit policy on the team's own
// history (issue 45, point 4): it reads the month-end ledgers, the scores
// the team knew at each month-end, the filings and the limits in force
// from the store into a policy.History, validates the policy's scorecard
// beside the Risk and Pay scores alone (internal/policy), and replays the
// team's past limit decisions under the policy. Nothing here writes.
package validation

import (
	"context"
	"math"
	"slices"
	"strings"
	"time"

	"creditdash/internal/policy"
	"creditdash/internal/store"
)

// History is the team's history as the validation reads it.
type History struct {
	*policy.History
	// Gap is the month (YYYYMM) missing before the months read, 0 when
	// none is.
	Gap int
	// RiskKnown and PayKnown are how many of the Linked businesses of the
	// newest ledger have a Risk or Pay the team knows at its month-end.
	RiskKnown, PayKnown, Linked int
	// Business is each account's linked business (0 none), by account
	// index.
	Business []int32
}

// monthOf is the YYYYMM of a time.
func monthOf(t time.Time) int { return t.Year()*100 + int(t.Month()) }

// monthBefore is the YYYYMM before m.
func monthBefore(m int) int {
	if m%100 == 1 {
		return m - 100 + 11
	}
	return m - 1
}

// monthsBetween counts the months from YYYYMM a to YYYYMM b.
func monthsBetween(a, b int) int { return (b/100*12 + b%100) - (a/100*12 + a%100) }

// ledgerMonths picks the newest run of consecutive months from ledger
// dates (newest first): the last ledger of each month, oldest first, and
// the month missing before them (0 none).
func ledgerMonths(dates []string) (months []int, at []string, gap int) {
	for _, d := range dates {
		t, err := time.Parse(store.DateLayout, d)
		if err != nil {
			continue
		}
		m := monthOf(t)
		if len(months) > 0 {
			prev := months[len(months)-1]
			if m == prev {
				continue // an earlier ledger of a month already read
			}
			if want := monthBefore(prev); m != want {
				gap = want
				break
			}
		}
		months, at = append(months, m), append(at, d)
	}
	slices.Reverse(months)
	slices.Reverse(at)
	return months, at, gap
}

// ReadHistory reads the newest run of consecutive month-end ledgers, their
// accounts, the scores the team knew of each linked business at each
// month-end, the limit in force at each month-end (from the team's dated
// decisions) and the filings in force. nil when the team has no ledger.
func ReadHistory(ctx context.Context, st *store.Store, a store.Analyst) (*History, error) {
	th, _, err := readHistory(ctx, st, a)
	return th, err
}

// readHistory is ReadHistory with the team's dated limits it read.
func readHistory(ctx context.Context, st *store.Store, a store.Analyst) (*History, *limitBook, error) {
	dates, err := st.LedgerDates(ctx, a) // newest first
	if err != nil || len(dates) == 0 {
		return nil, nil, err
	}
	months, at, gap := ledgerMonths(dates)
	th := &History{Gap: gap}
	limits, err := readLimits(ctx, st, a)
	if err != nil {
		return nil, nil, err
	}
	book := policy.NewBook(months)
	for i, d := range at {
		accts, err := st.Accounts(ctx, a, d)
		if err != nil {
			return nil, nil, err
		}
		known, err := st.ScoresAsOf(ctx, a, months[i])
		if err != nil {
			return nil, nil, err
		}
		end := monthEnd(months[i])
		// In account order: the store lists them in none, and the
		// bootstrap draws accounts in the order first met.
		slices.SortFunc(accts, func(x, y store.Account) int { return strings.Compare(x.Account, y.Account) })
		for _, ac := range accts {
			l := policy.Blank()
			l.Balance, l.Current, l.Days1to30, l.Days31to60, l.Days61to90, l.Over90 = ac.Balance, ac.Current, ac.Days1to30, ac.Days31to60, ac.Days61to90, ac.DaysOver90
			l.Limit = limits.at(ac.Account, end)
			if k, ok := known[ac.BusinessID]; ok && ac.BusinessID != 0 {
				setScores(&l, k)
			}
			if i == len(at)-1 && ac.BusinessID != 0 {
				th.Linked++
				if l.Risk != policy.Missing {
					th.RiskKnown++
				}
				if l.Pay != policy.Missing {
					th.PayKnown++
				}
			}
			book.Add(i, ac.Account, l)
		}
	}
	th.History = book.History()
	accts, err := st.Accounts(ctx, a, "")
	if err != nil {
		return nil, nil, err
	}
	business := make(map[string]int32, len(accts))
	for _, ac := range accts {
		business[ac.Account] = ac.BusinessID
	}
	th.Business = make([]int32, len(th.Accounts))
	for i, acct := range th.Accounts {
		th.Business[i] = business[acct]
	}
	return th, limits, readFilings(ctx, st, a, th)
}

// setScores puts the scores known at a month-end on its line, each only
// within its range (a value outside it counts as missing).
func setScores(l *policy.Line, k store.MonthScores) {
	if k.Risk >= 1 && k.Risk <= 10 {
		l.Risk = int8(math.Round(k.Risk))
	}
	if k.Pay >= 1 && k.Pay <= 10 {
		l.Pay = int8(math.Round(k.Pay))
	}
	if k.DBT >= 0 && k.DBT <= 999 {
		l.DBT = int16(math.Round(k.DBT))
	}
	if !math.IsNaN(k.Z) && !math.IsInf(k.Z, 0) {
		l.Z = float32(k.Z)
	}
}

// monthEnd is the last instant of month m (YYYYMM), UTC.
func monthEnd(m int) time.Time {
	return time.Date(m/100, time.Month(m%100)+1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Microsecond)
}

// readFilings marks the month of each filing in force on the accounts
// linked to its business: from that month-end on, they are in default.
func readFilings(ctx context.Context, st *store.Store, a store.Analyst, th *History) error {
	ds, err := st.Defaults(ctx, a)
	if err != nil || len(ds) == 0 || len(th.Months) == 0 {
		return err
	}
	filed := map[int32]int{}
	for _, d := range ds {
		if d.InForce() {
			filed[d.BusinessID] = monthOf(d.Published)
		}
	}
	th.Filed = make([]int, len(th.Accounts))
	first := th.Months[0]
	for i := range th.Accounts {
		th.Filed[i] = -1
		if m, ok := filed[th.Business[i]]; ok && th.Business[i] != 0 {
			// Before the history's first month counts from its first.
			th.Filed[i] = max(monthsBetween(first, m), 0)
		}
	}
	return nil
}
