package views

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"creditdash/internal/credit"
	"creditdash/internal/store"
)

// Figures are one account's numbers as every accounts page and download
// shows them: the ledger's, the team's known scores, and what follows.
type Figures struct {
	store.Account
	// Utilization is balance / limit (UtilOK false without a limit).
	Utilization float64
	UtilOK      bool
	// Band is the known Risk band (0 none), PD its probability, EL the
	// expected loss (ELOK false without a band).
	Band int
	PD   float64
	EL   float64
	ELOK bool
	Risk *store.KnownScore
	Pay  *store.KnownScore
	DBT  *store.KnownScore
	Z    *store.KnownScore
	// Calc is the calculator's answer with the saved inputs.
	Calc credit.Limit
	// Implied is the calculator's result with the inputs saved for the
	// account (ImpliedOK false when none are saved or no cap applies).
	Implied   float64
	ImpliedOK bool
}

// OverLimit reports a balance above a given limit.
func (f Figures) OverLimit() bool { return f.Account.Limit != nil && f.Balance > *f.Account.Limit }

// Linked reports an account linked to a service business.
func (f Figures) Linked() bool { return f.BusinessID != 0 }

// NewFigures works out an account's figures from its ledger line and the
// team's known scores of its business.
func NewFigures(a store.Account, known map[store.Score]store.KnownScore) Figures {
	f := Figures{Account: a}
	f.Utilization, f.UtilOK = credit.Utilization(a.Balance, a.Limit)
	pick := func(s store.Score) *store.KnownScore {
		if k, ok := known[s]; ok {
			return &k
		}
		return nil
	}
	if a.BusinessID != 0 {
		f.Risk, f.Pay, f.DBT, f.Z = pick(store.ScoreRisk), pick(store.ScorePay), pick(store.ScoreDBT), pick(store.ScoreZ)
	}
	if f.Risk != nil {
		f.Band = credit.Band(f.Risk.Value)
		f.PD, f.ELOK = credit.PD(f.Band)
		f.EL = credit.ExpectedLoss(a.Balance, f.PD)
	}
	if in := a.Inputs; in != nil {
		sheet := credit.Cap{Name: "Balance-sheet cap", Rationale: "Skipped: the statements gave no figures when the inputs were saved."}
		if in.SheetCap != nil {
			sheet = credit.Cap{Name: "Balance-sheet cap", Value: max(*in.SheetCap, 0), Available: true,
				Rationale: "As worked out from the statements when the inputs were saved."}
		}
		var z *float64
		if f.Z != nil {
			z = &f.Z.Value
		}
		f.Calc = credit.Calculate(credit.LimitInputs{MonthlySales: in.MonthlySales, MonthsAllowed: in.MonthsAllowed, LossBudget: in.LossBudget}, f.Band, z, sheet)
		f.Implied, f.ImpliedOK = f.Calc.Recommended, f.Calc.Available
	}
	return f
}

// AccountsFilter is the accounts page's sort and filters, as its query
// carries them.
type AccountsFilter struct {
	OverLimit, NotLinked, NoScore bool
	Owner                         string
	// Band is "" (any), "1".."10", or "none".
	Band string
	// Sort is a column's key; Desc its direction.
	Sort string
	Desc bool
}

// AccountSorts are the columns the page sorts by.
var AccountSorts = []string{"account", "name", "balance", "limit", "utilization", "risk", "el", "implied", "owner"}

// Keep reports whether the filter keeps f.
func (flt AccountsFilter) Keep(f Figures) bool {
	switch {
	case flt.OverLimit && !f.OverLimit():
		return false
	case flt.NotLinked && f.Linked():
		return false
	case flt.NoScore && (f.Risk != nil || !f.Linked()):
		return false
	case flt.Owner != "" && !strings.EqualFold(flt.Owner, f.Owner):
		return false
	case flt.Band == "none" && f.Band != 0:
		return false
	case flt.Band != "" && flt.Band != "none" && strconv.Itoa(f.Band) != flt.Band:
		return false
	}
	return true
}

// SortFigures orders the rows by the filter's column, unknown values last
// whichever the direction, then by account number.
func SortFigures(fs []Figures, flt AccountsFilter) {
	key := func(f Figures) (float64, bool) {
		switch flt.Sort {
		case "balance":
			return f.Balance, true
		case "limit":
			if f.Account.Limit == nil {
				return 0, false
			}
			return *f.Account.Limit, true
		case "utilization":
			return f.Utilization, f.UtilOK
		case "risk":
			return float64(f.Band), f.Band != 0
		case "el":
			return f.EL, f.ELOK
		case "implied":
			return f.Implied, f.ImpliedOK
		}
		return 0, false
	}
	text := func(f Figures) string {
		switch flt.Sort {
		case "name":
			return strings.ToLower(f.Name)
		case "owner":
			return strings.ToLower(f.Owner)
		}
		return ""
	}
	slices.SortStableFunc(fs, func(a, b Figures) int {
		c := 0
		switch flt.Sort {
		case "name", "owner":
			c = cmp.Compare(text(a), text(b))
		case "", "account":
		default:
			ka, oka := key(a)
			kb, okb := key(b)
			if oka != okb {
				if oka {
					return -1
				}
				return 1
			}
			c = cmp.Compare(ka, kb)
		}
		if flt.Desc {
			c = -c
		}
		return cmp.Or(c, cmp.Compare(a.Account.Account, b.Account.Account))
	})
}

// Amount formats an amount in whole dollars; "—" for NaN.
func Amount(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Dash
	}
	return Money(int64(math.Round(v)))
}

// Fraction formats a fraction as a percentage with one decimal.
func Fraction(f float64) string { return Percent(f * 100) }

// PDText formats a PD as a percent with up to three decimals, as the band
// midpoints have them: "1.135%", "6.995%", "0.06%".
func PDText(pd float64) string {
	s := strings.TrimRight(strconv.FormatFloat(pd*100, 'f', 3, 64), "0")
	return strings.TrimSuffix(s, ".") + "%"
}

// KnownMonth writes a YYYYMM month as "2026-10".
func KnownMonth(m int) string {
	if m <= 0 {
		return ""
	}
	return strconv.Itoa(m/100) + "-" + twoDigits(m%100)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
