package browsertest

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// chartsState is the number of charts on the page when every [data-chart]
// container says data-drawn="true", else minus the number still undrawn.
// Charts draw when they come into view, so it scrolls to the first undrawn
// one; waitCharts asks it again until the test's condition holds. A heat
// map a phone leaves for its button (data-chart-deferred) is not counted
// (0 when it is the page's only chart): the tests of that choice
// (phonegrid_test.go) count those.
const chartsState = `(() => {
	const els = Array.from(document.querySelectorAll('[data-chart]:not([data-chart-deferred])'));
	const undrawn = els.filter((e) => e.getAttribute('data-drawn') !== 'true');
	if (els.length > 0 && undrawn.length === 0) return els.length;
	if (els.length === 0) return 0;
	undrawn[0].scrollIntoView({block: 'center'});
	return -undrawn.length;
})()`

// waitCharts asks chartsState until ok accepts its answer, then scrolls
// back where the page was: a wait for the charts, however long a busy
// machine makes it, bounded by the test's deadline.
func waitCharts(b *Browser, what string, ok func(n int) bool) int {
	b.t.Helper()
	at := Eval[[]float64](b, `[window.scrollX, window.scrollY]`)
	n := Until(b, what, chartsState, ok)
	Eval[bool](b, fmt.Sprintf(`window.scrollTo(%g, %g), true`, at[0], at[1]))
	return n
}

// paintedPixels counts, per chart, the canvas pixels that are not fully
// transparent: a drawn chart has axes, lines and labels on its canvas.
const paintedPixels = `Array.from(document.querySelectorAll('[data-chart]:not([data-chart-deferred])')).map((el) => {
	const c = el.querySelector('canvas');
	if (!c || c.width === 0 || c.height === 0) return {ID: el.id, Painted: 0, Total: 0};
	const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
	let n = 0;
	for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) n++;
	return {ID: el.id, Painted: n, Total: c.width * c.height};
})`

type painted struct {
	ID             string
	Painted, Total int
}

// openSignedIn opens path signed out, signs in as demo on the sign-in page
// it is sent to, and checks it lands back on path.
func openSignedIn(t *testing.T, app *apptest.App, b *Browser, path string) {
	t.Helper()
	b.Navigate(app.URL + path)
	if want := app.URL + "/login?next=" + url.QueryEscape(path); b.URL() != want {
		t.Fatalf("GET %s signed out: at %q, want %q", path, b.URL(), want)
	}
	if status := signIn(t, b, "demo"); status != http.StatusOK {
		t.Fatalf("sign in: landing status %d", status)
	}
	if b.URL() != app.URL+path {
		t.Fatalf("after sign-in: at %q, want %q", b.URL(), app.URL+path)
	}
}

// checkChartsDrawn waits for every chart and checks each has pixels.
func checkChartsDrawn(t *testing.T, b *Browser, want int) {
	t.Helper()
	waitCharts(b, fmt.Sprintf("%d charts drawn", want), func(n int) bool { return n == want })
	for _, p := range Eval[[]painted](b, paintedPixels) {
		// A blank canvas has no pixels; a drawn chart paints well over 1%.
		if p.Total == 0 || p.Painted*100 < p.Total {
			t.Errorf("chart %s: %d of %d canvas pixels painted", p.ID, p.Painted, p.Total)
		}
	}
}

func TestBusinessChartsAreDrawn(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/businesses/1001")
	checkChartsDrawn(t, b, 5)

	if status := b.ClickNavigate(`nav.tabs a[href="/businesses/1001/payments"]`); status != http.StatusOK {
		t.Fatalf("payments tab: status %d", status)
	}
	checkChartsDrawn(t, b, 4)
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}

// tooltipTexts lists the texts on a chart's zrender layer that only a
// tooltip holds (the richText tooltip draws on the canvas, not in the DOM).
const tooltipTexts = `((id, needle) => {
	const chart = echarts.getInstanceByDom(document.getElementById(id));
	const out = [];
	chart.getZr().storage.getDisplayList(true, true).forEach((el) => {
		const text = el.style && el.style.text;
		if (typeof text === 'string' && text.indexOf(needle) >= 0 && !el.invisible && !el.ignore) out.push(text);
	});
	return out;
})`

func TestBusinessChartTooltipUnderCSP(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/businesses/1001")
	checkChartsDrawn(t, b, 5)

	before := Eval[[]string](b, tooltipTexts+`('chart-risk', 'chance of bankruptcy')`)
	if len(before) != 0 {
		t.Fatalf("a tooltip shows before any hover: %q", before)
	}
	b.Hover("#chart-risk", 0.8, 0.5)
	tips := Until(b, "a tooltip naming the bankruptcy probability on the Risk chart", tooltipTexts+`('chart-risk', 'chance of bankruptcy')`,
		func(tips []string) bool { return len(tips) > 0 })
	if !strings.Contains(tips[0], "Risk") {
		t.Errorf("tooltip = %q", tips[0])
	}
	// HTML tooltips would be a div in the chart; richText keeps them on the canvas.
	if n := Eval[int](b, `document.querySelectorAll('#chart-risk div[style]').length`); n > 1 {
		t.Errorf("%d styled tooltip elements in the DOM; want the richText tooltip on the canvas", n)
	}

	// The aging chart's axis tooltip lists the buckets of the month.
	b.ClickNavigate(`nav.tabs a[href="/businesses/1001/payments"]`)
	checkChartsDrawn(t, b, 4)
	b.Hover("#chart-aging", 0.5, 0.5)
	Until(b, "a tooltip on the aging chart", tooltipTexts+`('chart-aging', '91+ days')`, func(tips []string) bool { return len(tips) > 0 })
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}

func TestBusinessTimeFrameFormChangesCharts(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/businesses/1001")
	checkChartsDrawn(t, b, 5)
	months := func(id string) int {
		return Eval[int](b, `echarts.getInstanceByDom(document.getElementById('`+id+`')).getOption().xAxis[0].data.length`)
	}
	if n := months("chart-risk"); n != 24 {
		t.Fatalf("default frame: %d months, want 24", n)
	}
	// Month inputs take YYYY-MM as their value whatever the display locale.
	Eval[bool](b, `(document.getElementById('from').value = '2026-01', document.getElementById('to').value = '2026-06', true)`)
	if status := b.ClickNavigate(`.window-form button[type="submit"]`); status != http.StatusOK {
		t.Fatalf("submitting the time frame: status %d", status)
	}
	if got := b.URL(); !strings.Contains(got, "from=2026-01") || !strings.Contains(got, "to=2026-06") {
		t.Errorf("after the form: at %q", got)
	}
	checkChartsDrawn(t, b, 5)
	for _, id := range []string{"chart-risk", "chart-pay", "chart-dbt", "chart-z", "chart-risk-history"} {
		if n := months(id); n != 6 {
			t.Errorf("%s after choosing Jan–Jun 2026: %d months, want 6", id, n)
		}
	}
	b.NoConsoleErrors(t)
}

func TestBusinessSharedSupplierLinkLandsAfterSignIn(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t) // a fresh browser context: no cookies
	const link = "/suppliers/S-1001/payments"
	openSignedIn(t, app, b, link)
	b.WaitVisible("table.aging")
	if got := b.Text("h1"); got != apptest.DemoData().Businesses[0].Name {
		t.Errorf("h1 = %q", got)
	}
	if got := b.Text(`nav.tabs a[aria-current="page"]`); got != "Payments" {
		t.Errorf("current tab = %q", got)
	}
	if share := Eval[string](b, `document.getElementById('share-url').value`); share != app.URL+link {
		t.Errorf("shareable URL = %q, want %q", share, app.URL+link)
	}
	checkChartsDrawn(t, b, 4)
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
