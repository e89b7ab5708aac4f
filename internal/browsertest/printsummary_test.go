package browsertest

import (
	"net/http"
	"testing"

	"creditdash/internal/apptest"
)

// TestCreditSummaryPrints: the report's "Print a credit summary" leads to
// a page that prints on A4 and on Letter within two pages, its text never
// under 8 pt, its Print button and links to the app not on paper.
func TestCreditSummaryPrints(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	for _, id := range []string{"1001", "1004"} {
		if id == "1001" {
			openSignedIn(t, app, b, "/businesses/1001")
		} else {
			b.Navigate(app.URL + "/businesses/" + id)
		}
		if status := b.ClickNavigate("a.print-summary"); status != http.StatusOK {
			t.Fatalf("%s: print a credit summary: status %d", id, status)
		}
		if !b.Exists("button[data-print]") {
			t.Fatalf("%s: the summary has no Print button", id)
		}
		emulateMedia(b, "print")
		if s := Eval[textSize](b, smallestText); s.Px < minPrintPx {
			t.Errorf("%s: printed text of %.1f px (under 8 pt): %s", id, s.Px, s.What)
		}
		if Eval[bool](b, `document.querySelector('button[data-print]').getClientRects().length > 0`) {
			t.Errorf("%s: the Print button prints", id)
		}
		b.Screenshot("summary-print-" + id)
		emulateMedia(b, "")
		for _, paper := range Papers {
			_, pages := PrintPages(t, b, paper)
			if pages < 1 || pages > 2 {
				t.Errorf("%s: the credit summary prints on %d %s pages, want 1 or 2", id, pages, paper.Name)
			}
			t.Logf("summary of %s on %s: %d pages", id, paper.Name, pages)
		}
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}

// lastPoints places each chart's last month on the page: its x in the
// chart and the chart's right edge, against the page's width.
const lastPoints = `(() => {
	const out = [];
	for (const el of document.querySelectorAll('[data-chart]')) {
		const c = echarts.getInstanceByDom(el);
		if (!c) { out.push({ID: el.id, Drawn: false}); continue; }
		const o = c.getOption();
		const axis = (o.xAxis || [])[0];
		if (!axis || !axis.data || axis.data.length === 0) continue;
		const last = axis.data[axis.data.length - 1];
		const label = typeof last === 'object' ? last.value : last;
		const x = c.convertToPixel({xAxisIndex: 0}, label);
		const r = el.getBoundingClientRect();
		out.push({ID: el.id, Drawn: true, Label: String(label), X: x, Width: el.clientWidth, Right: r.right, Page: window.innerWidth});
	}
	return out;
})()`

// lastPoint is where a chart's last month is drawn.
type lastPoint struct {
	ID, Label             string
	Drawn                 bool
	X, Width, Right, Page float64
}

// TestOverviewPrintPages prints the overview of two businesses on A4 and
// Letter (it printed on 9 and 10 pages before the print stylesheet laid
// its charts two to a row, and on 4 with every data table in one column):
// it must fit 3 pages, every data table still on paper and no printed text
// under 8 pt; and laid out at A4's width under the print stylesheet every
// chart's last month is drawn inside the chart and the chart inside the
// page.
func TestOverviewPrintPages(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/businesses/1001")
	for _, id := range []string{"1001", "1004"} {
		path := "/businesses/" + id
		setViewport(b, windowWidth, windowHeight, false)
		if status := b.Navigate(app.URL + path); status != http.StatusOK {
			t.Fatalf("GET %s: status %d", path, status)
		}
		waitECharts(b)
		for _, paper := range Papers {
			_, pages := PrintPages(t, b, paper)
			t.Logf("overview of %s on %s: %d pages", id, paper.Name, pages)
			if pages > 3 {
				t.Errorf("the overview of %s prints on %d %s pages, want at most 3", id, pages, paper.Name)
			}
		}
		setViewport(b, printWidth, 1000, false)
		emulateMedia(b, "print")
		Eval[bool](b, `window.dispatchEvent(new Event('beforeprint')), true`)
		// The charts take their paper form as the page gets to it.
		Until(b, "the charts drawn in their paper form", lastPoints, func(points []lastPoint) bool {
			for _, p := range points {
				if !p.Drawn || p.X <= 0 {
					return false
				}
			}
			return len(points) >= 5
		})
		p := Eval[printed](b, printView)
		if p.Tables < 5 || p.HiddenTables > 0 {
			t.Errorf("%s: %d of %d data tables in details do not print, want the 5 charts' tables on paper", path, p.HiddenTables, p.Tables)
		}
		if s := Eval[textSize](b, smallestText); s.Px < minPrintPx {
			t.Errorf("%s: printed text of %.1f px (under 8 pt): %s", path, s.Px, s.What)
		}
		points := Eval[[]lastPoint](b, lastPoints)
		if len(points) < 5 {
			t.Fatalf("%s: %d charts with a month axis, want the overview's 5", path, len(points))
		}
		for _, p := range points {
			if !p.Drawn || p.X <= 0 || p.X > p.Width || p.Right > p.Page+1 {
				t.Errorf("%s: chart %s on paper: last month %q at x=%.0f of %.0f, chart right edge %.0f of the page's %.0f", path, p.ID, p.Label, p.X, p.Width, p.Right, p.Page)
			}
		}
		b.Screenshot("overview-print-" + id)
		Eval[bool](b, `window.dispatchEvent(new Event('afterprint')), true`)
		emulateMedia(b, "")
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
