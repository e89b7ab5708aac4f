package views

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"creditdash/internal/credit"
)

// AccountsFilter is the accounts page's sort and filters, as its query
// carries them.
type AccountsFilter struct {
	OverLimit, NotLinked, NoScore bool
	// ERPDiffers keeps the accounts whose ERP limit in the newest ledger
	// differs from the limit in force.
	ERPDiffers bool
	Owner      string
	// Band is "" (any), "1".."10", or "none".
	Band string
	// Sort is a column's key; Desc its direction.
	Sort string
	Desc bool
}

// AccountSorts are the columns the page sorts by.
var AccountSorts = []string{"account", "name", "balance", "limit", "utilization", "risk", "el", "implied", "owner"}

// Keep reports whether the filter keeps f.
func (flt AccountsFilter) Keep(f credit.Figures) bool {
	switch {
	case flt.OverLimit && !f.OverLimit():
		return false
	case flt.NotLinked && f.Linked():
		return false
	case flt.ERPDiffers && !f.Account.ERPDiffers():
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

// SortFigurePointers orders pointers to rows by the filter's column,
// unknown values last whichever the direction, then by account number.
// Pages and downloads sort these, never a copy of the team's figures: a
// copy of 50,000 is 19 MB, moved about by the sort.
func SortFigurePointers(fs []*credit.Figures, flt AccountsFilter) {
	slices.SortStableFunc(fs, CompareFigures(flt))
}

// CompareFigures is the filter's order of two rows.
func CompareFigures(flt AccountsFilter) func(a, b *credit.Figures) int {
	key := func(f *credit.Figures) (float64, bool) {
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
	text := func(f *credit.Figures) string {
		switch flt.Sort {
		case "name":
			return strings.ToLower(f.Name)
		case "owner":
			return strings.ToLower(f.Owner)
		}
		return ""
	}
	return func(a, b *credit.Figures) int {
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
	}
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
