package views

import (
	"testing"
	"time"

	"creditdash/internal/upstream"
)

func statement(year int, values map[string]upstream.DataPoint) upstream.AnnualFinancials {
	v := map[string]upstream.DataPoint{
		"FiscalYear":    {Label: "Fiscal year", Value: fp(float64(year))},
		"PeriodEndDate": {Label: "Period end date", Text: "2025-12-31T00:00:00"},
	}
	for k, dp := range values {
		v[k] = dp
	}
	return upstream.AnnualFinancials{Values: v}
}

func findRow(g StatementGrid, label string) (StatementRow, bool) {
	for _, r := range g.Rows {
		if r.Label == label {
			return r, true
		}
	}
	return StatementRow{}, false
}

func TestStatementGridFullAccess(t *testing.T) {
	all := map[string]upstream.DataPoint{}
	for _, sk := range standardStatementKeys[1:] {
		all[sk.key] = upstream.DataPoint{Label: sk.label, Value: fp(1234567.4)}
	}
	older := map[string]upstream.DataPoint{}
	for k, v := range all {
		older[k] = v
	}
	delete(older, "EBIT")                                                    // withheld in one year only
	older["NetIncome"] = upstream.DataPoint{Label: "Net income"}             // present without a value
	older["Sales"] = upstream.DataPoint{Label: "Sales", Value: fp(-2500000)} // negative
	older["CurrentRatio"] = upstream.DataPoint{Label: "Current ratio", Value: fp(1.456)}
	g := NewStatementGrid([]upstream.AnnualFinancials{statement(2025, all), statement(2024, older)})
	if g.Limited {
		t.Error("full data reads as limited")
	}
	if len(g.Years) != 2 || g.Years[0] != "FY 2025" || g.Years[1] != "FY 2024" {
		t.Errorf("years = %q", g.Years)
	}
	if len(g.Rows) != len(standardStatementKeys)+1 {
		t.Errorf("%d rows, want the %d standard ones and one extra", len(g.Rows), len(standardStatementKeys))
	}
	checks := []struct {
		label string
		want  []StatementCell
	}{
		{"Period end date", []StatementCell{{Text: "Dec 31, 2025"}, {Text: "Dec 31, 2025"}}},
		{"Sales", []StatementCell{{"$1,234,567", "num"}, {"-$2,500,000", "num"}}},
		{"EBIT", []StatementCell{{"$1,234,567", "num"}, {WithheldText, "withheld"}}},
		{"Net income", []StatementCell{{"$1,234,567", "num"}, {"not reported", "missing"}}},
		{"Current ratio", []StatementCell{{WithheldText, "withheld"}, {"1.46", "num"}}},
	}
	for _, c := range checks {
		r, ok := findRow(g, c.label)
		if !ok {
			t.Errorf("no row %q", c.label)
			continue
		}
		if r.Withheld != "" || len(r.Cells) != len(c.want) {
			t.Errorf("%s: %+v", c.label, r)
			continue
		}
		for i := range c.want {
			if r.Cells[i] != c.want[i] {
				t.Errorf("%s year %d = %+v, want %+v", c.label, i, r.Cells[i], c.want[i])
			}
		}
	}
}

func TestStatementGridAPIOnlyWithholds(t *testing.T) {
	few := map[string]upstream.DataPoint{
		"Sales":       {Label: "Sales", Value: fp(8.4e9)},
		"NetIncome":   {Label: "Net income", Value: fp(1e8)},
		"TotalAssets": {Label: "Total assets", Value: fp(2e9)},
	}
	g := NewStatementGrid([]upstream.AnnualFinancials{statement(2025, few), statement(2024, few)})
	if !g.Limited {
		t.Error("a grid missing standard keys must say the access model withholds them")
	}
	withheld := 0
	for _, r := range g.Rows {
		switch r.Label {
		case "Sales", "Net income", "Total assets", "Period end date":
			if r.Withheld != "" {
				t.Errorf("%s is withheld but was sent", r.Label)
			}
		default:
			withheld++
			if r.Withheld != WithheldAccessText || len(r.Cells) != 0 {
				t.Errorf("%s = %+v, want %q and no cells (never blank or 0)", r.Label, r, WithheldAccessText)
			}
		}
	}
	if withheld != 10 {
		t.Errorf("%d rows withheld, want 10", withheld)
	}
}

func TestStatementGridEmptyAndOddYears(t *testing.T) {
	if g := NewStatementGrid(nil); len(g.Years) != 0 || len(g.Rows) != 0 {
		t.Errorf("no statements: %+v", g)
	}
	odd := []upstream.AnnualFinancials{
		{Values: map[string]upstream.DataPoint{"FiscalYear": {Text: "2023/24"}}},
		{Values: map[string]upstream.DataPoint{}},
	}
	g := NewStatementGrid(odd)
	if g.Years[0] != "FY 2023/24" || g.Years[1] != "Year 2" {
		t.Errorf("years = %q", g.Years)
	}
}

func TestOfficerRows(t *testing.T) {
	now := time.Date(2026, 10, 15, 0, 0, 0, 0, time.UTC)
	hire := upstream.DateTime{Time: time.Date(2014, 3, 4, 0, 0, 0, 0, time.UTC)}
	title := upstream.DateTime{Time: time.Date(2021, 7, 1, 0, 0, 0, 0, time.UTC)}
	rows := OfficerRows([]upstream.Officer{
		{FirstName: "Ana", MiddleInitial: "M", LastName: "Ruiz", Age: ip(58), Title: "Chief Executive Officer", DateOfTitle: title, DateOfHire: hire},
		{FirstName: " ", LastName: "Okafor", MiddleInitial: "J.", Title: ""},
	}, now)
	want := []OfficerRow{
		{Name: "Ana M. Ruiz", Title: "Chief Executive Officer", Age: "58", TitleSince: "Jul 1, 2021", HiredOn: "Mar 4, 2014", Tenure: "12 years"},
		{Name: "J. Okafor", Title: Dash, Age: Dash, TitleSince: Dash, HiredOn: Dash},
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("officer %d = %+v,\nwant %+v", i, rows[i], want[i])
		}
	}
	if got := OfficerRows(nil, now); got == nil || len(got) != 0 {
		t.Errorf("no officers = %#v, want an empty list", got)
	}
	names := map[[3]string]string{
		{"", "", ""}:           "(no name given)",
		{"Li", "", "Wei"}:      "Li Wei",
		{"Jean", "Luc", "Pic"}: "Jean Luc Pic",
	}
	for in, want := range names {
		if got := PersonName(in[0], in[1], in[2]); got != want {
			t.Errorf("PersonName%q = %q, want %q", in, got, want)
		}
	}
}
