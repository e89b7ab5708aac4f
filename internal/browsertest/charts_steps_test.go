package browsertest

import (
	"net/http"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"creditdash/internal/apptest"
)

// recordCharts wraps ECharts as it arrives so a test can see how each chart
// was drawn: the data length of each setOption's first series, and the
// frames rendered.
const recordCharts = `(() => {
	let real;
	window.__charts = [];
	Object.defineProperty(window, 'echarts', {configurable: true, get: () => real, set: (v) => {
		const init = v.init;
		real = Object.assign({}, v, {init: function (el) {
			const c = init.apply(this, arguments);
			const rec = {id: el.id, sets: [], frames: 0};
			window.__charts.push(rec);
			const set = c.setOption;
			c.setOption = function (o) {
				const s = [].concat((o && o.series) || [])[0];
				rec.sets.push(s && s.data ? s.data.length : -1);
				return set.apply(this, arguments);
			};
			c.on('rendered', () => { rec.frames++; });
			return c;
		}});
	}});
})()`

// Charts never block: each is drawn in steps, a sketch without data first
// (so its axes and legend are a task of their own), then its data; a heat
// map's cells come a chunk per frame. Print still draws every cell at once.
func TestChartsDrawInSteps(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/portfolio/scores?score=pay")
	ctx := b.Context()
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: recordCharts}); err != nil {
		t.Fatal(err)
	}
	type rec struct {
		ID     string
		Sets   []int
		Frames int
	}
	for _, path := range []string{"/portfolio/scores?score=pay", "/businesses/1001/payments"} {
		if status := b.Navigate(app.URL + path); status != http.StatusOK {
			t.Fatalf("GET %s: status %d", path, status)
		}
		drawCharts(b)
		charts := Eval[[]rec](b, `window.__charts`)
		if len(charts) == 0 {
			t.Fatalf("%s: no chart recorded", path)
		}
		for _, c := range charts {
			if len(c.Sets) < 2 || c.Sets[0] != 0 || c.Sets[1] <= 0 {
				t.Errorf("%s %s: setOption data lengths %v, want a sketch without data, then the data", path, c.ID, c.Sets)
			}
		}
		if path == "/portfolio/scores?score=pay" {
			heat := charts[0]
			// A sketch frame, then the cells over several frames.
			if heat.Frames < 4 {
				t.Errorf("heat map rendered in %d frames, want its cells in chunks", heat.Frames)
			}
			Eval[bool](b, `window.dispatchEvent(new Event('beforeprint')), true`)
			p := Eval[int](b, `echarts.getInstanceByDom(document.querySelector('[data-chart]')).getOption().series[0].progressive`)
			Eval[bool](b, `window.dispatchEvent(new Event('afterprint')), true`)
			if p != 0 {
				t.Errorf("on paper the heat map draws %d cells a frame, want all at once (0)", p)
			}
		}
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
