package credit

import (
	"slices"
	"strings"
	"time"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// "Paying suppliers like you last": a stressed buyer pays the suppliers it
// cannot do without and lets the others wait, which the SIC payment
// summary shows before the overall DBT does. A divergence compares the
// DBT toward one supplier category with the overall DBT over the last
// three reported months.

// divergenceSpan is how many reported months back the rise is measured
// from: the newest month against the third reported month before it.
const divergenceSpan = 3

// DBTPoint is one month's DBT.
type DBTPoint struct {
	Month MonthIndex
	DBT   int
}

// Divergence is the two DBT lines of a business, month by month, oldest
// first: toward one supplier category and overall.
type Divergence struct {
	// Code is the category's code ("36"); Name its name on the last row
	// read ("" when the service gave none, or without rows).
	Code, Name string
	Category   []DBTPoint
	Overall    map[MonthIndex]int
}

// MatchCategory finds the category of sic that stands for code: the same
// code, or else the major group (two digits) that holds it, as a rule on
// 5065 is read from a summary by major group (50). "" when none.
func MatchCategory(sic []upstream.PaymentSummaryRow, code string) string {
	if code == "" {
		return ""
	}
	best := ""
	for _, r := range sic {
		c := strings.TrimSpace(r.CategoryCode)
		switch {
		case c == code:
			return c
		case c != "" && strings.HasPrefix(code, c) && len(c) > len(best):
			best = c
		}
	}
	return best
}

// paymentMonth is a summary row's month; ok is false when unreadable.
func paymentMonth(r upstream.PaymentSummaryRow) (MonthIndex, bool) {
	t, ok := r.Month()
	if !ok {
		return 0, false
	}
	return MonthOf(t.Year(), int(t.Month())), true
}

// NewDivergence reads the two lines for the category code from a
// business's monthly and SIC payment summaries.
func NewDivergence(monthly, sic []upstream.PaymentSummaryRow, code string) Divergence {
	d := Divergence{Code: code, Overall: make(map[MonthIndex]int, len(monthly))}
	for _, r := range monthly {
		if m, ok := paymentMonth(r); ok && r.DBTIndex.OK {
			d.Overall[m] = r.DBTIndex.V
		}
	}
	for _, r := range sic {
		if strings.TrimSpace(r.CategoryCode) != code || !r.DBTIndex.OK {
			continue
		}
		if m, ok := paymentMonth(r); ok {
			d.Name = r.CategoryName
			d.Category = append(d.Category, DBTPoint{m, r.DBTIndex.V})
		}
	}
	slices.SortFunc(d.Category, func(a, b DBTPoint) int { return int(a.Month - b.Month) })
	d.Category = slices.CompactFunc(d.Category, func(a, b DBTPoint) bool { return a.Month == b.Month })
	return d
}

// Change is the last three reported months' move: the newest month with
// both lines against the third reported month of the category before it.
type Change struct {
	From, To          MonthIndex
	CategoryFrom      int
	CategoryTo        int
	Rise, OverallMove int
}

// Change works out the rise toward the category and the overall move; ok
// is false without four months with both lines.
func (d Divergence) Change() (Change, bool) {
	pts := slices.DeleteFunc(slices.Clone(d.Category), func(p DBTPoint) bool { _, ok := d.Overall[p.Month]; return !ok })
	if len(pts) <= divergenceSpan {
		return Change{}, false
	}
	to, from := pts[len(pts)-1], pts[len(pts)-1-divergenceSpan]
	move := d.Overall[to.Month] - d.Overall[from.Month]
	return Change{From: from.Month, To: to.Month, CategoryFrom: from.DBT, CategoryTo: to.DBT,
		Rise: to.DBT - from.DBT, OverallMove: move}, true
}

// ToMonth is the newest month of the change, where a firing is dated.
func (c Change) ToMonth() (year int, month time.Month) { return c.To.Year(), time.Month(c.To.Month()) }

// Diverges reports whether a divergence rule fires on the change: the DBT
// toward the category rose by at least the rule's threshold while the
// overall DBT moved by less than its steady days, either way.
func Diverges(r store.RuleSpec, ch Change) bool {
	if r.Condition != store.Divergence {
		return false
	}
	move := ch.OverallMove
	if move < 0 {
		move = -move
	}
	return float64(ch.Rise) >= r.Threshold && float64(move) < r.Steady
}

// SteepestCategory is the category whose DBT rose most against the
// overall DBT over the last three reported months, for a tab with no
// category chosen; "" when no category has four months.
func SteepestCategory(monthly, sic []upstream.PaymentSummaryRow) string {
	var codes []string
	for _, r := range sic {
		if c := strings.TrimSpace(r.CategoryCode); c != "" && !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	slices.Sort(codes)
	best, bestGap := "", 0
	for _, code := range codes {
		ch, ok := NewDivergence(monthly, sic, code).Change()
		if gap := ch.Rise - ch.OverallMove; ok && (best == "" || gap > bestGap) {
			best, bestGap = code, gap
		}
	}
	return best
}
