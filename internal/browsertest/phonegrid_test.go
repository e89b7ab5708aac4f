package browsertest

import (
	"net/http"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"creditdash/internal/apptest"
)

// settled resolves once js/charts.js has had its every chance to fetch
// ECharts: its load handler decides (never on a page whose every chart
// waits for its button) and, where it would fetch, asks for an idle
// callback; idle callbacks run in the order asked, so one asked after the
// load event's handlers runs after it. A condition, not a time: on a busy
// machine it comes later, and no timeout lets it come before.
const settled = `new Promise((resolve) => {
	const idle = () => setTimeout(() => requestIdleCallback(() => resolve(true)), 0);
	if (document.readyState === 'complete') idle(); else addEventListener('load', idle);
})`

// heatView is how a page shows one heat map: its chart and button, the
// table beside it, what ECharts has done and the layout shifts so far.
type heatView struct {
	// Deferred: js/charts.js left the chart for its button.
	Deferred bool
	// ChartShown: the chart's box is laid out; Width is its width.
	ChartShown bool
	Width      float64
	// Canvases in the chart's box; Instance: ECharts began it.
	Canvases int
	Instance bool
	// ECharts: its script was added to the page or has run.
	ECharts bool
	// Button: the "Show as chart" button is laid out, with this text and
	// aria-expanded.
	Button         bool
	ButtonText     string
	ButtonExpanded string
	// TableRows of the heat table; Zones: the distinct background colours
	// of its zone-coloured cells.
	TableRows, Zones int
	// Shift is the page's layout shift so far (CLS without input).
	Shift float64
}

// readHeat measures the heat map whose chart has the given id.
func readHeat(b *Browser, id string) heatView {
	b.t.Helper()
	return Eval[heatView](b, `(async () => {
	const el = document.getElementById(`+jsString(id)+`);
	const box = el.parentNode;
	const table = box.parentNode.querySelector('table.heat');
	const button = box.querySelector('[data-show-chart]');
	const zones = new Set();
	table.querySelectorAll('td[class^="zone-"]:not(.zone-none)').forEach((td) => zones.add(getComputedStyle(td).backgroundColor));
	// The shifts so far come buffered to an observer, later; the page's
	// navigation entry, which every page has, comes to a second observer
	// in the same delivery, after the first's. Its arrival is the signal
	// that every shift so far has been counted (takeRecords collects any
	// not yet handed over), whatever the machine's speed.
	const shift = await new Promise((resolve) => {
		let sum = 0;
		const add = (entries) => entries.forEach((e) => { if (!e.hadRecentInput) sum += e.value; });
		const shifts = new PerformanceObserver((list) => add(list.getEntries()));
		shifts.observe({type: 'layout-shift', buffered: true});
		const nav = new PerformanceObserver(() => {
			add(shifts.takeRecords());
			nav.disconnect();
			shifts.disconnect();
			resolve(sum);
		});
		nav.observe({type: 'navigation', buffered: true});
	});
	return {
		Deferred: el.hasAttribute('data-chart-deferred'),
		ChartShown: el.getClientRects().length > 0, Width: el.getBoundingClientRect().width,
		Canvases: el.querySelectorAll('canvas').length,
		Instance: !!(window.echarts && echarts.getInstanceByDom(el)),
		ECharts: !!window.echarts || document.querySelector('script[src*="echarts.min"]') !== null,
		Button: !!button && button.getClientRects().length > 0,
		ButtonText: button ? button.textContent.trim() : '', ButtonExpanded: button ? button.getAttribute('aria-expanded') : '',
		TableRows: table.querySelectorAll('tbody tr').length, Zones: zones.size, Shift: shift,
	};
})()`)
}

// openOnPhone signs demo in on path, opens it again at a phone's size (the
// window's own size back when the test ends) and waits for it to settle.
func openOnPhone(t *testing.T, app *apptest.App, b *Browser, path string) {
	t.Helper()
	openSignedIn(t, app, b, path)
	setViewport(b, phoneWidth, phoneHeight, true)
	t.Cleanup(func() { setViewport(b, windowWidth, windowHeight, false) })
	if status := b.Navigate(app.URL + path); status != http.StatusOK {
		t.Fatalf("GET %s: status %d", path, status)
	}
	Eval[bool](b, settled)
}

// On a phone the score grid is its coloured table: the heat map's chart is
// neither laid out nor begun, ECharts is not even fetched, and nothing moves
// when the script decides so. "Show as chart" draws it at the phone's
// width; "Hide chart" puts it away. On a laptop the chart is drawn as ever
// and the button is not shown.
func TestScoreGridOnAPhoneIsATable(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	const path = "/portfolio/scores?score=pay"
	openOnPhone(t, app, b, path)
	v := readHeat(b, "score-heatmap")
	if !v.Deferred || v.ChartShown || v.Canvases > 0 || v.Instance || v.ECharts {
		t.Errorf("at %d px the heat map was started: %+v", phoneWidth, v)
	}
	if !v.Button || v.ButtonText != "Show as chart" || v.ButtonExpanded != "false" {
		t.Errorf("at %d px no Show as chart button: %+v", phoneWidth, v)
	}
	if v.TableRows != 25 || v.Zones < 3 {
		t.Errorf("at %d px the table has %d rows in %d zone colours, want 25 rows and at least 3 colours", phoneWidth, v.TableRows, v.Zones)
	}
	if v.Shift > 0.01 {
		t.Errorf("at %d px the page shifted by %.3f before any input", phoneWidth, v.Shift)
	}
	b.Screenshot("390-score-grid-table")

	b.Click(`[data-show-chart="score-heatmap"]`)
	checkChartsDrawn(t, b, 1)
	v = readHeat(b, "score-heatmap")
	if v.Deferred || !v.ChartShown || !v.Instance || v.Width < 300 || v.Width > phoneWidth {
		t.Errorf("after Show as chart: %+v, want the chart drawn within %d px", v, phoneWidth)
	}
	if v.ButtonText != "Hide chart" || v.ButtonExpanded != "true" {
		t.Errorf("after Show as chart the button reads %q, aria-expanded %q", v.ButtonText, v.ButtonExpanded)
	}
	b.Screenshot("390-score-grid-chart")
	b.Click(`[data-show-chart="score-heatmap"]`)
	if v = readHeat(b, "score-heatmap"); v.ChartShown || v.ButtonText != "Show as chart" {
		t.Errorf("after Hide chart: %+v", v)
	}

	setViewport(b, 1366, desktopHeight, false)
	if status := b.Navigate(app.URL + path); status != http.StatusOK {
		t.Fatalf("GET %s: status %d", path, status)
	}
	checkChartsDrawn(t, b, 1)
	if v = readHeat(b, "score-heatmap"); v.Deferred || !v.ChartShown || v.Button || v.Width < 1000 {
		t.Errorf("at 1366 px: %+v, want the chart drawn across the page and no button", v)
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}

// A phone that turns wide (a tablet rotated, a window widened) draws the
// heat map it left for its button; on paper a phone prints the table and
// leaves the chart's empty box out.
func TestScoreGridDrawsWhenThePhoneTurnsWide(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openOnPhone(t, app, b, "/portfolio/scores?score=z")
	emulateMedia(b, "print")
	Eval[bool](b, `window.dispatchEvent(new Event('beforeprint')), true`)
	if v := readHeat(b, "score-heatmap"); !v.Deferred || v.ChartShown || v.Button || v.Instance {
		t.Errorf("a phone's print: %+v, want the table only", v)
	}
	Eval[bool](b, `window.dispatchEvent(new Event('afterprint')), true`)
	emulateMedia(b, "")

	setViewport(b, 1024, 768, false)
	checkChartsDrawn(t, b, 1)
	if v := readHeat(b, "score-heatmap"); v.Deferred || !v.ChartShown || v.Button {
		t.Errorf("turned to 1024 px: %+v, want the chart drawn and no button", v)
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}

// On a busy machine the browser applies a wider screen late: a wait that
// began while the page still showed the phone's table must wait for the
// chart, not take the table for the answer (make test under load once read
// "charts drawn 0"). Here the screen widens only once the wait has looked,
// on a CPU twenty times slower.
func TestScoreGridDrawsWhenThePhoneTurnsWideLate(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openOnPhone(t, app, b, "/portfolio/scores?score=z")
	b.SlowCPU(20)
	widen, widened := make(chan struct{}), make(chan error, 1)
	go func() {
		<-widen
		_, err := chromedp.Call(b.Context(), emulation.SetDeviceMetricsOverride,
			emulation.SetDeviceMetricsOverrideParams{Width: 1024, Height: 768, DeviceScaleFactor: 1})
		widened <- err
	}()
	var once sync.Once
	waitCharts(b, "the heat map drawn once the screen is wide", func(n int) bool {
		once.Do(func() { close(widen) })
		return n == 1
	})
	if err := <-widened; err != nil {
		t.Fatalf("widening the screen: %v", err)
	}
	b.SlowCPU(1)
	checkChartsDrawn(t, b, 1)
	if v := readHeat(b, "score-heatmap"); v.Deferred || !v.ChartShown {
		t.Errorf("turned to 1024 px late: %+v, want the chart drawn", v)
	}
}
