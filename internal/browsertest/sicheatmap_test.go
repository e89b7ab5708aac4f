package browsertest

import (
	"testing"

	"creditdash/internal/apptest"
)

// The supplier-category DBT heat map draws (HeatmapChart and the piecewise
// visual map are in the build) without a CSP violation, and at 390 px the
// Payments tab does not scroll sideways: wide tables scroll in their region.
// The audit runs on a laptop's screen: on a phone js/charts.js narrows heat
// maps (six months and a slider), which the audit would count as a
// difference from the options sent. On the phone the heat map waits for its
// button (its coloured table is shown) while the other three charts draw;
// the button draws it within the screen.
func TestSICHeatMapDrawsOnAPhone(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	setViewport(b, desktopWidth, desktopHeight, false)
	openSignedIn(t, app, b, "/businesses/1001/payments")
	checked := auditCharts(t, b, 4)
	heat := 0
	for _, c := range checked {
		if len(c) > len("chart-sic-heat") && c[:len("chart-sic-heat")] == "chart-sic-heat" {
			heat++
		}
	}
	if heat == 0 {
		t.Errorf("the heat map was not audited: %v", checked)
	}

	setViewport(b, phoneWidth, phoneHeight, true)
	b.Navigate(app.URL + "/businesses/1001/payments")
	checkChartsDrawn(t, b, 3)
	if v := readHeat(b, "chart-sic-heat"); !v.Deferred || v.ChartShown || v.Instance || !v.Button || v.Zones < 2 {
		t.Errorf("at %d px the heat map did not wait for its button: %+v", phoneWidth, v)
	}
	b.Click(`[data-show-chart="chart-sic-heat"]`)
	checkChartsDrawn(t, b, 4)
	if w := Eval[float64](b, `document.getElementById('chart-sic-heat').getBoundingClientRect().width`); w < 300 || w > phoneWidth {
		t.Errorf("heat map %v px wide on a %d px screen", w, phoneWidth)
	}
	sw := Eval[int](b, `document.documentElement.scrollWidth`)
	iw := Eval[int](b, `document.documentElement.clientWidth`)
	if sw > iw {
		t.Errorf("the page scrolls sideways at %d px: scrollWidth %d", iw, sw)
	}
	if n := Eval[int](b, `document.querySelectorAll('#sic-heat table.heat tbody tr').length`); n < 3 {
		t.Errorf("heat table rows: %d", n)
	}
	setViewport(b, windowWidth, windowHeight, false)
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
