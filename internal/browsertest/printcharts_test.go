package browsertest

import (
	"net/http"
	"testing"

	"creditdash/internal/apptest"
)

// chartParts counts, over every chart on the page, the legends shown as
// scrolling pages and the zoom sliders.
const chartParts = `(() => {
	let charts = 0, scrolling = 0, sliders = 0;
	for (const el of document.querySelectorAll('[data-chart]')) {
		const c = echarts.getInstanceByDom(el);
		if (!c) continue;
		const o = c.getOption();
		if (!o) continue;
		charts++;
		scrolling += (o.legend || []).filter((l) => l.type === 'scroll').length;
		sliders += (o.dataZoom || []).filter((z) => z.type === 'slider').length;
	}
	return {Charts: charts, Scrolling: scrolling, Sliders: sliders};
})()`

type chartPartCount struct{ Charts, Scrolling, Sliders int }

// TestChartsPrintWholeLegendsWithoutSliders: on paper a legend shows every
// entry (not a page of them with arrows) and no zoom slider prints; after
// printing the screen's legends and sliders come back.
func TestChartsPrintWholeLegendsWithoutSliders(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/portfolio/stress")
	for _, c := range []struct {
		path    string
		scrolls bool // the page's charts have a scrolling legend on screen
		slides  bool // and a zoom slider
	}{{"/portfolio/stress", true, true}, {"/businesses/1001", false, true}, {"/businesses/1001/payments", true, true}} {
		if status := b.Navigate(app.URL + c.path); status != http.StatusOK {
			t.Fatalf("GET %s: status %d", c.path, status)
		}
		waitECharts(b)
		Eval[bool](b, `window.dispatchEvent(new Event('beforeprint')), true`)
		on := Eval[chartPartCount](b, chartParts)
		if on.Charts == 0 || on.Scrolling > 0 || on.Sliders > 0 {
			t.Errorf("%s while printing: %d charts, %d scrolling legends, %d sliders; want charts without either", c.path, on.Charts, on.Scrolling, on.Sliders)
		}
		Eval[bool](b, `window.dispatchEvent(new Event('afterprint')), true`)
		after := Eval[chartPartCount](b, chartParts)
		if (after.Scrolling > 0) != c.scrolls || (after.Sliders > 0) != c.slides {
			t.Errorf("%s after printing: %d scrolling legends, %d sliders; want the screen's back", c.path, after.Scrolling, after.Sliders)
		}
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
