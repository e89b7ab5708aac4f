package browsertest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// waitChartsDrawn resolves to the number of charts on the page once every
// [data-chart] container says data-drawn="true", or to minus the number
// still undrawn after ten seconds. Charts draw when they come into view, so
// it scrolls to each undrawn one in turn, and back where it was at the end.
// A heat map a phone leaves for its button (data-chart-deferred) is not
// counted: the tests of that choice (phonegrid_test.go) count those.
const waitChartsDrawn = `new Promise((resolve) => {
	const deadline = Date.now() + 10000;
	const x = window.scrollX, y = window.scrollY;
	const done = (n) => { window.scrollTo(x, y); resolve(n); };
	(function check() {
		const els = Array.from(document.querySelectorAll('[data-chart]:not([data-chart-deferred])'));
		const undrawn = els.filter((e) => e.getAttribute('data-drawn') !== 'true');
		if (els.length > 0 && undrawn.length === 0) return done(els.length);
		if (els.length === 0 && document.querySelector('[data-chart-deferred]')) return done(0);
		if (Date.now() > deadline) return done(-undrawn.length);
		if (undrawn.length > 0) undrawn[0].scrollIntoView({block: 'center'});
		setTimeout(check, 50);
	})();
})`

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
	n := Eval[int](b, waitChartsDrawn)
	// Under a whole make test, Chromium gets little of the two cores while
	// every package's tests run under the race detector: a page whose
	// charts are still drawing gets two more waits.
	for tries := 0; n < 0 && tries < 2; tries++ {
		n = Eval[int](b, waitChartsDrawn)
	}
	if n != want {
		t.Fatalf("charts drawn: %d, want %d (negative: that many never drew)", n, want)
	}
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
	tips := Eval[[]string](b, `new Promise((resolve) => setTimeout(() => resolve(`+tooltipTexts+`('chart-risk', 'chance of bankruptcy')), 400))`)
	if len(tips) == 0 {
		t.Fatal("hovering the Risk chart shows no tooltip naming the bankruptcy probability")
	}
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
	if tips := Eval[[]string](b, `new Promise((resolve) => setTimeout(() => resolve(`+tooltipTexts+`('chart-aging', '91+ days')), 400))`); len(tips) == 0 {
		t.Error("hovering the aging chart shows no tooltip")
	}
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
