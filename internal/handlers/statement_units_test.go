package handlers_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// TestStatementsInThousandsOrMillions: ?units= shows the statements in
// thousands or millions, named in the caption and kept by the controls;
// each amount says its change on the fiscal year before, the oldest year
// none.
func TestStatementsInThousandsOrMillions(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	sales := func(p *apptest.Page) []string {
		var cells []string
		p.Doc.Find("table.statements tbody tr").Each(func(_ int, tr *goquery.Selection) {
			if strings.TrimSpace(tr.Find("th").Text()) == "Sales" {
				tr.Find("td").Each(func(_ int, td *goquery.Selection) {
					cells = append(cells, strings.Join(strings.Fields(td.Text()), " "))
				})
			}
		})
		return cells
	}
	full := u.Get("/businesses/1001/financials")
	mustStatus(t, "financials", full, http.StatusOK)
	m := u.Get("/businesses/1001/financials?units=m")
	mustStatus(t, "financials?units=m", m, http.StatusOK)
	if !strings.Contains(m.Text("table.statements caption"), "millions of dollars") {
		t.Errorf("caption = %q", m.Text("table.statements caption"))
	}
	cells := sales(m)
	if len(cells) < 2 {
		t.Fatalf("Sales cells in millions = %q", cells)
	}
	inM := regexp.MustCompile(`^\$[\d,]+\.\dM [+-]?[\d,]+\.\d %$`)
	for _, c := range cells[:len(cells)-1] { // newest first: the oldest year has no year before
		if !inM.MatchString(c) {
			t.Errorf("Sales cell %q, want millions with the change on the year", c)
		}
	}
	if last := cells[len(cells)-1]; strings.Contains(last, "%") {
		t.Errorf("the oldest year's Sales %q has a change with no year before", last)
	}
	if k := sales(u.Get("/businesses/1001/financials?units=k")); !regexp.MustCompile(`^\$[\d,]+k `).MatchString(k[0]) {
		t.Errorf("Sales in thousands = %q", k[0])
	}
	if v, _ := m.Doc.Find(`.statement-controls input[name="units"]`).Attr("value"); v != "m" {
		t.Errorf("the controls keep units = %q, want m", v)
	}
	if cur := m.Text(".unit-links strong"); cur != "Millions" {
		t.Errorf("current units = %q", cur)
	}
	if odd := sales(u.Get("/businesses/1001/financials?units=zz")); odd[0] != sales(full)[0] {
		t.Errorf("unknown units show %q, want dollars %q", odd[0], sales(full)[0])
	}
}
