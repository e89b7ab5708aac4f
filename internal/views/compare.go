package views

import (
	"math"
	"strconv"
	"strings"

	"creditdash/internal/upstream"
)

// MaxCompared is how many businesses /compare sets side by side.
const MaxCompared = 5

// CompareInput is what the compare page loaded for one business.
type CompareInput struct {
	ID   int32
	Name string
	// Problem, when set, replaces the business's column (not loaded to
	// save requests, or its calls failed).
	Problem *Problem
	Hist    []upstream.CreditScoreHistoryRow
	Pay     []upstream.PaymentSummaryRow
	Stmts   []upstream.AnnualFinancials
}

// ComparePage is /compare: businesses side by side, one row per measure.
type ComparePage struct {
	Base
	// IDs is the ids compared, as the URL carries them ("1001,1002").
	IDs string
	// Notices tell what in the URL was left out and why.
	Notices []string
	Columns []CompareColumn
	Rows    []CompareRow
	// Charts are the score histories on one time axis, one per score.
	ScoreCharts []ChartPanel
}

// CompareColumn heads one business's column.
type CompareColumn struct {
	ID        string
	Name      string
	URL       string
	Problem   *Problem
	RemoveURL string
}

// CompareRow is one measure across the businesses.
type CompareRow struct {
	Label string
	// Note says which way is better ("higher is better"), or that the row
	// is context and marks nothing.
	Note  string
	Cells []CompareCell
}

// CompareCell is one value; Mark is "best", "worst" or "", in words, and
// Class colours it (the word is always there beside the colour).
type CompareCell struct {
	Text  string
	Zone  Zone
	Mark  string
	Class string
}

// measure reads one number of a business; ok is false when it has none.
type measure struct {
	label, note string
	// better is +1 when higher is better, -1 when lower is, 0 for context.
	better int
	value  func(b *compareData) (float64, bool)
	format func(v float64) string
	zone   func(v float64) Zone
}

// compareData is one business's inputs, worked out once.
type compareData struct {
	hist  scoreHistory
	pay   *upstream.PaymentSummaryRow
	stmt  *upstream.AnnualFinancials
	valid bool
}

func scoreLatest(k ScoreKind) func(b *compareData) (float64, bool) {
	return func(b *compareData) (float64, bool) {
		p, ok := current(b.hist, k)
		return p.value, ok
	}
}

// current is the score's latest reported point only when it is of the
// history's newest month: a value that stopped earlier is no longer the
// business's score (its report says the score is missing for the latest
// months), and next to the others' it would pass for one.
func current(h scoreHistory, k ScoreKind) (scorePoint, bool) {
	p, ok := lastReported(h.of(k))
	if !ok || len(h.months) == 0 || p.month != h.months[len(h.months)-1] {
		return scorePoint{}, false
	}
	return p, true
}

// scoreChange is the change over the 12 months before the latest score.
func scoreChange(k ScoreKind) func(b *compareData) (float64, bool) {
	return func(b *compareData) (float64, bool) {
		p, ok := current(b.hist, k)
		if !ok {
			return 0, false
		}
		then, ok := at(b.hist.of(k), p.month-12)
		return p.value - then.value, ok
	}
}

func statementRatio(num, den string) func(b *compareData) (float64, bool) {
	return func(b *compareData) (float64, bool) {
		if b.stmt == nil {
			return 0, false
		}
		n, ok1 := statementNumber(*b.stmt, num)
		d, ok2 := statementNumber(*b.stmt, den)
		if !ok1 || !ok2 || d == 0 {
			return 0, false
		}
		return n / d, true
	}
}

func statementFigure(key string) func(b *compareData) (float64, bool) {
	return func(b *compareData) (float64, bool) {
		if b.stmt == nil {
			return 0, false
		}
		return statementNumber(*b.stmt, key)
	}
}

func payFigure(f func(r *upstream.PaymentSummaryRow) (float64, bool)) func(b *compareData) (float64, bool) {
	return func(b *compareData) (float64, bool) {
		if b.pay == nil {
			return 0, false
		}
		return f(b.pay)
	}
}

func scoreFormat(k ScoreKind) func(float64) string { return k.format }
func changeFormat(k ScoreKind) func(float64) string {
	return func(v float64) string { return Signed(v, k.decimals()) }
}
func ratioFormat(v float64) string   { return Decimal(v, 2) }
func percentFormat(v float64) string { return Percent(v * 100) }
func moneyFormat(v float64) string   { return CompactMoney(v) }
func monthFormat(v float64) string   { return monthIndex(v).String() }

// statementEnd is the month the latest fiscal year ended, as a monthIndex.
func statementEnd(b *compareData) (float64, bool) {
	if b.stmt == nil {
		return 0, false
	}
	end, ok := periodEnd(*b.stmt)
	return float64(end), ok
}

var compareMeasures = []measure{
	{"Risk score", "1–10, higher is safer", +1, scoreLatest(ScoreRisk), scoreFormat(ScoreRisk), ScoreRisk.zone},
	{"Risk, 12-month change", "a rise is better", +1, scoreChange(ScoreRisk), changeFormat(ScoreRisk), nil},
	{"Pay score", "1–10, higher is safer", +1, scoreLatest(ScorePay), scoreFormat(ScorePay), ScorePay.zone},
	{"Pay, 12-month change", "a rise is better", +1, scoreChange(ScorePay), changeFormat(ScorePay), nil},
	{"Z″-Score", "higher is safer; below 1.10 distress, above 2.60 safe", +1, scoreLatest(ScoreZ), scoreFormat(ScoreZ), ScoreZ.zone},
	{"Z″, 12-month change", "a rise is better", +1, scoreChange(ScoreZ), changeFormat(ScoreZ), nil},
	{"DBT (days beyond terms)", "lower is better", -1, scoreLatest(ScoreDBT), scoreFormat(ScoreDBT), ScoreDBT.zone},
	{"DBT, 12-month change", "a fall is better", -1, scoreChange(ScoreDBT), changeFormat(ScoreDBT), nil},
	{"Industry DBT", "the industry's average: context, not marked", 0, payFigure(func(r *upstream.PaymentSummaryRow) (float64, bool) {
		if !r.AverageDBTIndex.OK {
			return 0, false
		}
		return float64(r.AverageDBTIndex.V), true
	}), func(v float64) string { return Decimal(v, 0) }, nil},
	{"Past-due share", "of the total due, latest month; lower is better", -1, payFigure(func(r *upstream.PaymentSummaryRow) (float64, bool) {
		if r.TotalDue <= 0 {
			return 0, false
		}
		due := r.PastDue30Days + r.PastDue60Days + r.PastDue90Days + r.PastDueOver90Days
		return float64(due) / float64(r.TotalDue), true
	}), percentFormat, nil},
	// The statements below are each business's latest: its fiscal year
	// may end in another month, or another year, than the others'.
	{"Statements of", "the fiscal year ending that month: compare figures of one year with care", 0, statementEnd, monthFormat, nil},
	{"Sales", "latest fiscal year: size, not marked", 0, statementFigure("Sales"), moneyFormat, nil},
	{"Net income", "latest fiscal year: size, not marked", 0, statementFigure("NetIncome"), moneyFormat, nil},
	{"Net margin", "net income / sales; higher is better", +1, statementRatio("NetIncome", "Sales"), percentFormat, nil},
	{"Total assets", "latest fiscal year: size, not marked", 0, statementFigure("TotalAssets"), moneyFormat, nil},
	{"EBIT margin", "EBIT / sales; higher is better", +1, statementRatio("EBIT", "Sales"), percentFormat, nil},
	{"Current ratio", "current assets / current liabilities; higher is better", +1, statementRatio("CurrentAssets", "CurrentLiabilities"), ratioFormat, nil},
	{"Liabilities / assets", "lower is better", -1, statementRatio("TotalLiabilities", "TotalAssets"), ratioFormat, nil},
}

// NewCompare sets the businesses side by side: one row per measure, the
// best and worst of each row marked where the row has a better direction
// and at least two different values.
func NewCompare(bs []CompareInput) ([]CompareColumn, []CompareRow) {
	cols := make([]CompareColumn, len(bs))
	data := make([]compareData, len(bs))
	all := make([]string, len(bs))
	for i, b := range bs {
		all[i] = strconv.Itoa(int(b.ID))
	}
	ids := strings.Join(all, ",")
	for i, b := range bs {
		id := strconv.Itoa(int(b.ID))
		cols[i] = CompareColumn{ID: id, Name: b.Name, URL: WithCompare("/businesses/"+id, ids), Problem: b.Problem}
		if cols[i].Name == "" {
			cols[i].Name = "Business " + id
		}
		if b.Problem != nil {
			continue
		}
		d := &data[i]
		d.valid = true
		d.hist = newScoreHistory(b.Hist)
		if pays := sortedPayments(b.Pay, false); len(pays) > 0 {
			d.pay = &pays[0]
		}
		if s := latestStatement(b.Stmts); s != nil {
			d.stmt = s
		}
	}
	rows := make([]CompareRow, 0, len(compareMeasures))
	for _, m := range compareMeasures {
		row := CompareRow{Label: m.label, Note: m.note, Cells: make([]CompareCell, len(bs))}
		vals := make([]float64, len(bs))
		has := make([]bool, len(bs))
		for i := range bs {
			if !data[i].valid {
				row.Cells[i] = CompareCell{Text: "not loaded", Class: "missing"}
				continue
			}
			v, ok := m.value(&data[i])
			if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
				row.Cells[i] = CompareCell{Text: "missing", Class: "missing"}
				continue
			}
			vals[i], has[i] = v, true
			row.Cells[i] = CompareCell{Text: m.format(v), Class: "num"}
			if m.zone != nil {
				row.Cells[i].Zone = m.zone(v)
			}
		}
		markBestWorst(row.Cells, vals, has, m.better)
		rows = append(rows, row)
	}
	return cols, rows
}

// markBestWorst marks the best and worst values of a row in words and
// colour; ties share the mark; a row with fewer than two different values
// marks nothing.
func markBestWorst(cells []CompareCell, vals []float64, has []bool, better int) {
	if better == 0 {
		return
	}
	best, worst, n := math.Inf(-1), math.Inf(1), 0
	for i, v := range vals {
		if !has[i] {
			continue
		}
		n++
		v *= float64(better)
		best, worst = math.Max(best, v), math.Min(worst, v)
	}
	if n < 2 || best-worst < 1e-9 {
		return
	}
	for i, v := range vals {
		if !has[i] {
			continue
		}
		switch v * float64(better) {
		case best:
			cells[i].Mark, cells[i].Class = "best", "num best"
		case worst:
			cells[i].Mark, cells[i].Class = "worst", "num worst"
		}
	}
}

// latestStatement is the newest fiscal year (by period end), whatever the
// order the service sent.
func latestStatement(stmts []upstream.AnnualFinancials) *upstream.AnnualFinancials {
	var best *upstream.AnnualFinancials
	var bestEnd monthIndex
	for i := range stmts {
		end, ok := periodEnd(stmts[i])
		if best == nil || (ok && end > bestEnd) {
			best, bestEnd = &stmts[i], end
		}
	}
	return best
}

// compareColours tell the businesses apart on the charts; the legend and
// the table name each one too.
var compareColours = [...]string{"#1f5fbf", "#c05a1a", "#2e7d4f", "#7b3fa0", "#5b6475"}

// CompareCharts draws each score's history for every business on one
// shared month axis, with a table of the same numbers.
func CompareCharts(bs []CompareInput) ([]ChartPanel, error) {
	hs := make([]scoreHistory, len(bs))
	var lo, hi monthIndex
	first := true
	for i, b := range bs {
		if b.Problem != nil {
			continue
		}
		hs[i] = newScoreHistory(b.Hist)
		for _, m := range hs[i].months {
			if first || m < lo {
				lo = m
			}
			if first || m > hi {
				hi = m
			}
			first = false
		}
	}
	var out []ChartPanel
	for _, k := range scoreKinds {
		p := ChartPanel{Title: k.Name() + " history", Note: k.Scale()}
		if first {
			p.Empty = "No score history loaded."
			out = append(out, p)
			continue
		}
		var labels []string
		for m := lo; m <= hi; m++ {
			labels = append(labels, m.String())
		}
		p.Table = DataTable{Caption: k.Name() + " by month, one column per business", Head: []string{"Month"}}
		y := k.yAxis()
		line := newLineChart(k.Name(), y, labels)
		cols := make([][]string, 0, len(bs))
		drawn := false
		var zpts []scorePoint
		for i, b := range bs {
			if b.Problem != nil {
				continue
			}
			name := b.Name
			if name == "" {
				name = "Business " + strconv.Itoa(int(b.ID))
			}
			p.Table.Head = append(p.Table.Head, name)
			data := make([]ecItem, 0, len(labels))
			col := make([]string, 0, len(labels))
			for m := lo; m <= hi; m++ {
				pt, ok := at(hs[i].of(k), m)
				if !ok {
					data = append(data, ecItem{Name: m.String() + " · " + name + " · no score", Value: noValue})
					col = append(col, Dash)
					continue
				}
				drawn = true
				zpts = append(zpts, pt)
				data = append(data, ecItem{Name: m.String() + " · " + name + " · " + k.format(pt.value), Value: round(pt.value, k.decimals())})
				col = append(col, k.format(pt.value))
			}
			cols = append(cols, col)
			line.Series = append(line.Series, lineSeries(name, data, compareColours[i%len(compareColours)], "circle"))
		}
		if !drawn {
			p.Empty = "No " + k.short() + " score for these businesses."
			out = append(out, p)
			continue
		}
		if k == ScoreZ {
			y.Min, y.Max = zRange(zpts)
			line.YAxis = []ecAxis{y}
		}
		for j, m := 0, lo; m <= hi; j, m = j+1, m+1 {
			row := DataRow{Cells: []DataCell{{Text: m.String()}}}
			for _, col := range cols {
				row.Cells = append(row.Cells, numCell(col[j]))
			}
			p.Table.Rows = append(p.Table.Rows, row)
		}
		c, err := newChart("compare-"+k.chartID(), k.Name()+" of each business by month; the table lists every value", line)
		if err != nil {
			return nil, err
		}
		c.Size = "short"
		p.Chart = c
		out = append(out, p)
	}
	return out, nil
}
