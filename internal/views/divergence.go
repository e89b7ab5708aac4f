package views

import (
	"slices"
	"strconv"
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

// dbtPoint is one month's DBT.
type dbtPoint struct {
	month monthIndex
	dbt   int
}

// Divergence is the two DBT lines of a business, month by month, oldest
// first: toward one supplier category and overall.
type Divergence struct {
	// Code and Label name the category ("36", "36 Electronic ...").
	Code, Label string
	Category    []dbtPoint
	Overall     map[monthIndex]int
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

// NewDivergence reads the two lines for the category code from a
// business's monthly and SIC payment summaries.
func NewDivergence(monthly, sic []upstream.PaymentSummaryRow, code string) Divergence {
	d := Divergence{Code: code, Overall: make(map[monthIndex]int, len(monthly))}
	for _, r := range monthly {
		if m, ok := paymentMonthIndex(r); ok && r.DBTIndex.OK {
			d.Overall[m] = r.DBTIndex.V
		}
	}
	last := -1 // the category's last row read, whose label is shown
	for i, r := range sic {
		if strings.TrimSpace(r.CategoryCode) != code || !r.DBTIndex.OK {
			continue
		}
		if m, ok := paymentMonthIndex(r); ok {
			last = i
			d.Category = append(d.Category, dbtPoint{m, r.DBTIndex.V})
		}
	}
	if last >= 0 {
		d.Label = categoryLabel(sic[last])
	}
	slices.SortFunc(d.Category, func(a, b dbtPoint) int { return int(a.month - b.month) })
	d.Category = slices.CompactFunc(d.Category, func(a, b dbtPoint) bool { return a.month == b.month })
	return d
}

// Change is the last three reported months' move: the newest month with
// both lines against the third reported month of the category before it.
// ok is false without four such months.
type Change struct {
	From, To          monthIndex
	CategoryFrom      int
	CategoryTo        int
	Rise, OverallMove int
}

// Change works out the rise toward the category and the overall move.
func (d Divergence) Change() (Change, bool) {
	pts := slices.DeleteFunc(slices.Clone(d.Category), func(p dbtPoint) bool { _, ok := d.Overall[p.month]; return !ok })
	if len(pts) <= divergenceSpan {
		return Change{}, false
	}
	to, from := pts[len(pts)-1], pts[len(pts)-1-divergenceSpan]
	move := d.Overall[to.month] - d.Overall[from.month]
	return Change{From: from.month, To: to.month, CategoryFrom: from.dbt, CategoryTo: to.dbt,
		Rise: to.dbt - from.dbt, OverallMove: move}, true
}

// ToMonth is the newest month of the change, where a firing is dated.
func (c Change) ToMonth() (year int, month time.Month) { return c.To.year(), time.Month(c.To.month()) }

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

// DivergenceOptions lists the business's supplier categories for the
// payments tab's choice, by code.
func DivergenceOptions(sic []upstream.PaymentSummaryRow) []FolderOption {
	var out []FolderOption
	for _, r := range sic {
		c := strings.TrimSpace(r.CategoryCode)
		if c != "" && !slices.ContainsFunc(out, func(o FolderOption) bool { return o.ID == c }) {
			out = append(out, FolderOption{ID: c, Name: categoryLabel(r)})
		}
	}
	slices.SortFunc(out, func(a, b FolderOption) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// SteepestCategory is the category whose DBT rose most against the
// overall DBT over the last three reported months, for a tab with no
// category chosen; "" when no category has four months.
func SteepestCategory(monthly, sic []upstream.PaymentSummaryRow) string {
	best, bestGap := "", 0
	for _, o := range DivergenceOptions(sic) {
		ch, ok := NewDivergence(monthly, sic, o.ID).Change()
		if gap := ch.Rise - ch.OverallMove; ok && (best == "" || gap > bestGap) {
			best, bestGap = o.ID, gap
		}
	}
	return best
}

// DivergencePanel draws the DBT toward the category beside the overall
// DBT, with the spread between them, and says what the last three
// reported months did.
func DivergencePanel(d Divergence) (ChartPanel, string, error) {
	p := ChartPanel{Title: "DBT toward " + d.Label + " and overall",
		Note: "Days beyond terms toward one supplier category beside the business's overall DBT; the spread is the first less the second"}
	if len(d.Category) == 0 {
		p.Title = "DBT toward a supplier category and overall"
		p.Empty = "No DBT reported toward this category."
		return p, "", nil
	}
	summary := ""
	if ch, ok := d.Change(); ok {
		summary = "From " + ch.From.String() + " to " + ch.To.String() + ", DBT toward " + d.Label + " went from " +
			strconv.Itoa(ch.CategoryFrom) + " to " + strconv.Itoa(ch.CategoryTo) + " days (" + signed(ch.Rise) +
			") while the overall DBT moved " + signed(ch.OverallMove) + "."
	}
	p.Table = DataTable{Caption: "DBT toward " + d.Label + " and overall by month", Head: []string{"Month", "Toward " + d.Code, "Overall", "Spread"}}
	labels := make([]string, len(d.Category))
	var cat, all, spread []ecItem
	for i, pt := range d.Category {
		labels[i] = pt.month.param()
		// The axis tooltip shows a point's name: the month's three figures.
		tip := pt.month.String() + ": toward " + d.Code + " " + strconv.Itoa(pt.dbt) + " days"
		row := DataRow{Cells: []DataCell{{Text: pt.month.String()}, numCell(strconv.Itoa(pt.dbt))}}
		if o, ok := d.Overall[pt.month]; ok {
			tip += ", overall " + strconv.Itoa(o) + ", spread " + signed(pt.dbt-o)
			all = append(all, ecItem{Name: tip, Value: o})
			spread = append(spread, ecItem{Name: tip, Value: pt.dbt - o})
			row.Cells = append(row.Cells, numCell(strconv.Itoa(o)), numCell(signed(pt.dbt-o)))
		} else {
			tip += ", overall not reported"
			all = append(all, ecItem{Name: tip, Value: noValue})
			spread = append(spread, ecItem{Name: tip, Value: noValue})
			row.Cells = append(row.Cells, missingCell(Dash), missingCell(Dash))
		}
		cat = append(cat, ecItem{Name: tip, Value: pt.dbt})
		p.Table.Rows = append(p.Table.Rows, row)
	}
	line := newLineChart("DBT toward "+d.Code+" and overall", ecAxis{Name: "days", Type: "value"}, labels)
	line.Series = append(line.Series,
		lineSeries("Toward "+d.Code, cat, "#b3261e", "triangle"),
		lineSeries("Overall", all, "#1f5fbf", "circle"),
		lineSeries("Spread", spread, "#5b6475", "rect"))
	c, err := newChart("chart-divergence", "DBT toward supplier category "+d.Code+" and overall DBT by month, with their spread; the table lists every value", line)
	p.Chart = c
	return p, summary, err
}

// signed writes a change with its sign: "+12", "-1", "0".
func signed(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// divergenceText is a divergence rule's condition in words: "DBT toward
// SIC 36 rises by at least 10 days over three months while the overall
// DBT moves less than 3".
func divergenceText(r store.RuleSpec) string {
	cat := "your supplier category"
	if r.Category != "" {
		cat = "SIC " + r.Category
	}
	return "DBT toward " + cat + " rises by at least " + formatScore(store.ScoreDBT, r.Threshold) +
		" days over three months while the overall DBT moves less than " + formatScore(store.ScoreDBT, r.Steady)
}

// SupplierCategoryPage is the settings page of the team's supplier
// category: Code as typed, Saved as stored.
type SupplierCategoryPage struct {
	Base
	Code, Saved, Error string
}

// DivergenceAction is where the tab's category choice goes: the tab itself,
// addressed as the report is (by id, CustomerId or SupplierId).
func (p BusinessPaymentsPage) DivergenceAction() string {
	for _, t := range p.Header.Tabs {
		if t.Current {
			return p.Header.TabURL(t) + "#divergence"
		}
	}
	return "#divergence"
}
