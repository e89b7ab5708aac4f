package views

import (
	"slices"
	"strconv"
	"strings"

	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

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

// DivergencePanel draws the DBT toward the category beside the overall
// DBT, with the spread between them, and says what the last three
// reported months did.
func DivergencePanel(d credit.Divergence) (ChartPanel, string, error) {
	label := divergenceLabel(d)
	p := ChartPanel{Title: "DBT toward " + label + " and overall",
		Note: "Days beyond terms toward one supplier category beside the business's overall DBT; the spread is the first less the second"}
	if len(d.Category) == 0 {
		p.Title = "DBT toward a supplier category and overall"
		p.Empty = "No DBT reported toward this category."
		return p, "", nil
	}
	summary := ""
	if ch, ok := d.Change(); ok {
		summary = "From " + monthIndex(ch.From).String() + " to " + monthIndex(ch.To).String() + ", DBT toward " + label + " went from " +
			strconv.Itoa(ch.CategoryFrom) + " to " + strconv.Itoa(ch.CategoryTo) + " days (" + signed(ch.Rise) +
			") while the overall DBT moved " + signed(ch.OverallMove) + "."
	}
	p.Table = DataTable{Caption: "DBT toward " + label + " and overall by month", Head: []string{"Month", "Toward " + d.Code, "Overall", "Spread"}}
	labels := make([]string, len(d.Category))
	var cat, all, spread []ecItem
	for i, pt := range d.Category {
		month := monthIndex(pt.Month)
		labels[i] = month.param()
		// The axis tooltip shows a point's name: the month's three figures.
		tip := month.String() + ": toward " + d.Code + " " + strconv.Itoa(pt.DBT) + " days"
		row := DataRow{Cells: []DataCell{{Text: month.String()}, numCell(strconv.Itoa(pt.DBT))}}
		if o, ok := d.Overall[pt.Month]; ok {
			tip += ", overall " + strconv.Itoa(o) + ", spread " + signed(pt.DBT-o)
			all = append(all, ecItem{Name: tip, Value: o})
			spread = append(spread, ecItem{Name: tip, Value: pt.DBT - o})
			row.Cells = append(row.Cells, numCell(strconv.Itoa(o)), numCell(signed(pt.DBT-o)))
		} else {
			tip += ", overall not reported"
			all = append(all, ecItem{Name: tip, Value: noValue})
			spread = append(spread, ecItem{Name: tip, Value: noValue})
			row.Cells = append(row.Cells, missingCell(Dash), missingCell(Dash))
		}
		cat = append(cat, ecItem{Name: tip, Value: pt.DBT})
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

// divergenceLabel names the divergence's category as the SIC summary
// does ("36 Electronic ..."); "" without rows toward it.
func divergenceLabel(d credit.Divergence) string {
	if len(d.Category) == 0 {
		return ""
	}
	return categoryName(d.Code, d.Name)
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
