package views

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/upstream"
)

// options is a chart's options as the browser receives them.
func options(t *testing.T, c Chart) (map[string]any, string) {
	t.Helper()
	b := c.OptionJSON
	if strings.Contains(string(b), "__f__") {
		t.Errorf("chart %s holds a JavaScript function", c.ID)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m, string(b)
}

func series(t *testing.T, opt map[string]any) []map[string]any {
	t.Helper()
	raw, _ := opt["series"].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, s := range raw {
		out = append(out, s.(map[string]any))
	}
	return out
}

func xLabels(t *testing.T, opt map[string]any) []any {
	t.Helper()
	axes, _ := opt["xAxis"].([]any)
	if len(axes) == 0 {
		t.Fatal("no x axis")
	}
	data, _ := axes[0].(map[string]any)["data"].([]any)
	return data
}

func TestScoreChartsOptions(t *testing.T) {
	rows := history(24, func(i int, r *upstream.CreditScoreHistoryRow) {
		r.RiskScore, r.PayScore, r.DBTScore = ip(7-i/5), ip(8), ip(3)
		if i < 17 {
			r.ZScore = fp(2.6)
		}
	})
	panels, err := ScoreCharts(rows)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"chart-risk", "chart-pay", "chart-dbt", "chart-z"}
	names := []string{"Risk", "Pay", "DBT", "Z″"}
	for i, p := range panels {
		if p.Chart.ID != ids[i] || p.Empty != "" || p.Chart.Label == "" {
			t.Errorf("panel %d: id %q empty %q label %q", i, p.Chart.ID, p.Empty, p.Chart.Label)
		}
		opt, _ := options(t, p.Chart)
		s := series(t, opt)
		if len(s) != 1 || s[0]["name"] != names[i] || s[0]["type"] != "line" {
			t.Fatalf("%s: series %v", ids[i], s)
		}
		if data := s[0]["data"].([]any); len(data) != 24 || len(xLabels(t, opt)) != 24 {
			t.Errorf("%s: %d points, want 24", ids[i], len(data))
		}
		if title := opt["title"].(map[string]any)["text"]; title == "" || title == nil {
			t.Errorf("%s: no title", ids[i])
		}
		if legend := opt["legend"].(map[string]any); legend["show"] != true {
			t.Errorf("%s: legend hidden", ids[i])
		}
		tip := opt["tooltip"].(map[string]any)
		if tip["trigger"] != "axis" || tip["formatter"] != "{b0}" {
			t.Errorf("%s: tooltip %v", ids[i], tip)
		}
		if len(p.Table.Rows) != 24 || len(p.Table.Head) != 3 {
			t.Errorf("%s: table %d rows %v", ids[i], len(p.Table.Rows), p.Table.Head)
		}
		if xLabels(t, opt)[0] != "Nov 2024" {
			t.Errorf("%s: first month %v", ids[i], xLabels(t, opt)[0])
		}
	}
	_, risk := options(t, panels[0].Chart)
	if !strings.Contains(risk, "chance of bankruptcy within 12 months") {
		t.Error("Risk tooltips do not name the bankruptcy probability band")
	}
	_, pay := options(t, panels[1].Chart)
	if !strings.Contains(pay, "assumed to apply to Pay") {
		t.Error("Pay tooltips do not say the Risk table is assumed")
	}
	riskOpt, _ := options(t, panels[0].Chart)
	if b, _ := json.Marshal(riskOpt["yAxis"]); !strings.Contains(string(b), `"min":0`) || !strings.Contains(string(b), `"max":10`) {
		t.Errorf("Risk y axis %s, want 0 to 10 whatever the data", b)
	}
	zopt, zraw := options(t, panels[3].Chart)
	yZ, _ := json.Marshal(zopt["yAxis"])
	if !strings.Contains(string(yZ), `"min":0`) || !strings.Contains(string(yZ), `"max":4`) {
		t.Errorf("Z y axis %s, want 0 to 4: both zone lines (1.10, 2.60) and the data (2.60) in view", yZ)
	}
	zdata := series(t, zopt)[0]["data"].([]any)
	last := zdata[23].(map[string]any)
	if last["value"] != "-" || !strings.Contains(last["name"].(string), "no Z″ score") {
		t.Errorf("missing Z point = %v, want a gap named as missing", last)
	}
	if !strings.Contains(zraw, "distress below 1.10") || !strings.Contains(zraw, "safe above 2.60") {
		t.Error("Z chart lacks its labelled zone lines")
	}
	if cell := panels[3].Table.Rows[23].Cells[1]; cell.Text != "missing" {
		t.Errorf("Z table for Oct 2026 = %+v, want missing", cell)
	}
}

func TestScoreChartsEmpty(t *testing.T) {
	panels, err := ScoreCharts(history(12, func(i int, r *upstream.CreditScoreHistoryRow) { r.RiskScore = ip(5) }))
	if err != nil {
		t.Fatal(err)
	}
	if panels[0].Empty != "" || panels[1].Empty == "" || panels[3].Empty == "" {
		t.Errorf("empties: %q %q %q", panels[0].Empty, panels[1].Empty, panels[3].Empty)
	}
	none, _ := ScoreCharts(nil)
	for _, p := range none {
		if p.Empty == "" {
			t.Errorf("%s drawn without data", p.Title)
		}
	}
}

func TestRiskHistoryChart(t *testing.T) {
	p, err := RiskHistoryChart([]upstream.RiskHistoryRow{
		{Year: 2026, Month: 10, AverageRiskScore: fp(2.02)},
		{Year: 2026, Month: 9, AverageRiskScore: upstream.Num[float64]{}},
		{Year: 2026, Month: 8, AverageRiskScore: fp(2.9)},
	})
	if err != nil {
		t.Fatal(err)
	}
	opt, _ := options(t, p.Chart)
	if got := xLabels(t, opt); len(got) != 3 || got[0] != "Aug 2026" || got[2] != "Oct 2026" {
		t.Errorf("months = %v, want oldest first", got)
	}
	data := series(t, opt)[0]["data"].([]any)
	if v := data[2].(map[string]any)["value"]; v != 2.02 {
		t.Errorf("Oct 2026 = %v", v)
	}
	if v := data[1].(map[string]any)["value"]; v != "-" {
		t.Errorf("missing month = %v, want a gap", v)
	}
	if p.Chart.ID != "chart-risk-history" || len(p.Table.Rows) != 3 || p.Table.Rows[2].Cells[2].Text != "severe" {
		t.Errorf("panel %+v", p.Table.Rows)
	}
	if e, _ := RiskHistoryChart(nil); e.Empty == "" {
		t.Error("no rows must read as empty")
	}
}

func TestAgingChart(t *testing.T) {
	p, err := AgingChart([]upstream.PaymentSummaryRow{
		payment("2026-10", "", "All categories", 1000, ip(55)),
		payment("2026-09", "", "All categories", 1000, ip(52)),
		payment("bad", "", "All categories", 1000, ip(52)),
	})
	if err != nil {
		t.Fatal(err)
	}
	opt, _ := options(t, p.Chart)
	s := series(t, opt)
	if len(s) != 4 {
		t.Fatalf("%d series, want the 4 past-due buckets", len(s))
	}
	for i, ser := range s {
		if ser["stack"] != "aging" || ser["type"] != "bar" || !strings.HasPrefix(ser["name"].(string), AgingColumns[i+1]) {
			t.Errorf("series %d = %v %v %v", i, ser["name"], ser["type"], ser["stack"])
		}
	}
	if y := opt["yAxis"].([]any)[0].(map[string]any); y["max"] != nil {
		t.Errorf("past-due axis has max %v; it must scale to the late shares, not to 100 %%", y["max"])
	}
	if got := xLabels(t, opt); len(got) != 2 || got[0] != "Sep 2026" {
		t.Errorf("months = %v, want the two readable months oldest first", got)
	}
	if v := s[3]["data"].([]any)[1].(map[string]any)["value"]; v != 41.14 {
		t.Errorf("91+ share of Oct 2026 = %v", v)
	}
	if b, _ := json.Marshal(opt["aria"]); !strings.Contains(string(b), `"decal":{"show":true}`) {
		t.Errorf("bars carry no patterns: %s", b)
	}
	if e, _ := AgingChart(nil); e.Empty == "" {
		t.Error("no rows must read as empty")
	}
}

func TestSICDBTChart(t *testing.T) {
	p, err := SICDBTChart([]upstream.PaymentSummaryRow{
		payment("2026-10", "73", "Business Services", 500, ip(12)),
		payment("2026-10", "50", "Wholesale", 100, ip(3)),
		payment("2026-09", "73", "Business Services", 500, upstream.Num[int]{}),
	})
	if err != nil {
		t.Fatal(err)
	}
	opt, _ := options(t, p.Chart)
	s := series(t, opt)
	if len(s) != 2 || s[0]["name"] != "50 Wholesale" || s[1]["name"] != "73 Business Services" {
		t.Fatalf("series = %v", s)
	}
	if s[0]["symbol"] == s[1]["symbol"] {
		t.Error("series share a symbol: colour would be their only difference")
	}
	wholesale := s[0]["data"].([]any)
	if wholesale[0].(map[string]any)["value"] != "-" || wholesale[1].(map[string]any)["value"] != 3.0 {
		t.Errorf("wholesale = %v, want a gap in Sep and 3 in Oct", wholesale)
	}
	if got := p.Table.Head; len(got) != 3 || got[1] != "50 Wholesale" {
		t.Errorf("table head = %q", got)
	}
	if cell := p.Table.Rows[1].Cells[2]; cell.Text != "12 (slow)" {
		t.Errorf("Oct 2026 business services = %+v", cell)
	}
	if e, _ := SICDBTChart(nil); e.Empty == "" {
		t.Error("no rows must read as empty")
	}
	// A category sent by code alone one month and by name alone the next
	// reads "73" both times: one column, not two.
	same, err := SICDBTChart([]upstream.PaymentSummaryRow{
		payment("2026-10", "73", "", 500, ip(12)),
		payment("2026-09", "", "73", 500, ip(10)),
	})
	if err != nil || len(same.Table.Head) != 2 || same.Table.Head[1] != "73" {
		t.Errorf("one label from two spellings: head %q, %v", same.Table.Head, err)
	}
}

// TestSICDBTChartDrawsTheWorstCategories keeps the chart to four lines, the
// categories with the highest average DBT, while the table lists them all.
func TestSICDBTChartDrawsTheWorstCategories(t *testing.T) {
	var rows []upstream.PaymentSummaryRow
	for i, dbt := range []int{5, 40, 1, 25, 60, 12, 2} {
		code := strconv.Itoa(10 + i)
		rows = append(rows, payment("2026-10", code, "Cat "+code, 100, ip(dbt)), payment("2026-09", code, "Cat "+code, 100, ip(dbt+2)))
	}
	p, err := SICDBTChart(rows)
	if err != nil {
		t.Fatal(err)
	}
	opt, _ := options(t, p.Chart)
	var names []string
	for _, ser := range series(t, opt) {
		names = append(names, ser["name"].(string))
	}
	if want := []string{"11 Cat 11", "13 Cat 13", "14 Cat 14", "15 Cat 15"}; !slices.Equal(names, want) {
		t.Errorf("lines %q, want the four worst by average DBT in table order %q", names, want)
	}
	if len(p.Table.Head) != 8 {
		t.Errorf("table head %q, want Month and all 7 categories", p.Table.Head)
	}
	if !strings.Contains(p.Note, "table lists all 7") {
		t.Errorf("note %q does not say the table has the rest", p.Note)
	}
}

// A chart's options are written into the page as they were encoded, so the
// encoding itself must keep text from the service from closing the script
// element or starting markup.
func TestChartOptionsCannotCloseTheirElement(t *testing.T) {
	line := newLineChart("Risk", ecAxis{}, []string{"Jan"})
	line.Series = append(line.Series, lineSeries(`</script><script>alert(1)</script>`, []ecItem{{Name: `<b>&`, Value: 1}}, colourRisk, "circle"))
	c, err := newChart("chart-x", "x", line)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(c.OptionJSON); strings.ContainsAny(s, "<>&") || !strings.Contains(s, `\u003c/script\u003e`) {
		t.Fatalf("options %s carry markup characters unescaped", s)
	}
}

// TestChartsBuildNoFunctions: no view builds go-echarts' JavaScript
// functions, which the browser could only run through eval (the CSP
// forbids it); NewChart no longer scans every page's options for them.
func TestChartsBuildNoFunctions(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range []string{"FuncOpts(", "FuncStripCommentsOpts(", "AddJSFuncs(", "AddJSFuncStrs(", "types.FuncStr"} {
			if strings.Contains(string(src), fn) {
				t.Errorf("%s uses go-echarts' %s: a JavaScript function in chart options", name, strings.TrimSuffix(fn, "("))
			}
		}
	}
}
