package browsertest

import (
	"fmt"
	"testing"

	"creditdash/internal/apptest"
)

// The quadrant's scatter chart draws: ScatterChart is in the build, and
// every part its options ask for is on the live chart.
func TestQuadrantChartDraws(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/portfolio/quadrant")
	auditCharts(t, b, 1)
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}

// chartTextOverlaps lists pairs of texts ECharts drew over each other in
// the chart el (its title, legend, axis names and labels, line labels),
// from the renderer's own list of what it drew.
const chartTextOverlaps = `((sel) => {
	const chart = echarts.getInstanceByDom(document.querySelector(sel));
	const boxes = [];
	for (const el of chart.getZr().storage.getDisplayList()) {
		if ((el.type !== 'text' && el.type !== 'tspan') || el.ignore || !el.style || !el.style.text) continue;
		const r = el.getBoundingRect().clone();
		const m = el.getComputedTransform();
		if (m) r.applyTransform(m);
		if (r.width > 0 && r.height > 0) boxes.push({text: String(el.style.text), r});
	}
	const out = [];
	for (let i = 0; i < boxes.length; i++) {
		for (let j = i + 1; j < boxes.length; j++) {
			const a = boxes[i].r, b = boxes[j].r;
			const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
			const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
			if (w > 2 && h > 2) out.push(boxes[i].text + ' / ' + boxes[j].text);
		}
	}
	return {Texts: boxes.length, Overlaps: out};
})`

// On a phone and on a laptop, nothing the quadrant chart writes lies on
// anything else it writes: legend, axis names and the zone lines' labels
// each have a place.
func TestQuadrantChartTextsDoNotOverlap(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/portfolio/quadrant")
	for _, width := range []int64{phoneWidth, desktopWidth} {
		setViewport(b, width, phoneHeight, width < 600)
		b.Navigate(app.URL + "/portfolio/quadrant")
		drawCharts(b)
		r := Eval[struct {
			Texts    int
			Overlaps []string
		}](b, chartTextOverlaps+`('#chart-quadrant')`)
		if r.Texts < 6 {
			t.Fatalf("at %d px the chart wrote %d texts; the check needs its title, legend and axes", width, r.Texts)
		}
		if len(r.Overlaps) > 0 {
			t.Errorf("at %d px the quadrant chart writes texts over each other: %q", width, r.Overlaps)
		}
		b.Screenshot(fmt.Sprintf("%dpx", width))
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
