package browsertest

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"creditdash/internal/apptest"
)

// waitECharts waits until js/charts.js has fetched ECharts.
func waitECharts(b *Browser) {
	b.t.Helper()
	Until(b, "ECharts fetched", `!!window.echarts`, func(ok bool) bool { return ok })
}

// emulateMedia makes the page use the stylesheet of the given media
// ("print", or "" for the screen again).
func emulateMedia(b *Browser, media string) {
	b.t.Helper()
	ctx := b.Context()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media}); err != nil {
		b.fatalf("emulate media %q: %v", media, err)
	}
}

// printed is what the report looks like under the print stylesheet.
type printed struct {
	// ShownForms lists forms that would print.
	ShownForms []string
	// Fetched is the "Data fetched" line as printed, "" if hidden; Time its
	// machine-readable date.
	Fetched, Time string
	// SplitCharts lists charts that may break across pages.
	SplitCharts []string
	// HiddenTables counts data tables in details that would not print.
	HiddenTables, Tables int
	// ShownControls lists navigation and controls that would print.
	ShownControls []string
}

const printView = `(() => {
	const shown = (el) => getComputedStyle(el).display !== 'none' && el.getClientRects().length > 0;
	const name = (el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).trim().split(/\s+/).join('.') : '') + (el.getAttribute('aria-label') ? '[' + el.getAttribute('aria-label') + ']' : '');
	const fetched = document.querySelector('.freshness');
	const tables = Array.from(document.querySelectorAll('details table'));
	return {
		ShownForms: Array.from(document.forms).filter(shown).map(name),
		Fetched: fetched && shown(fetched) ? fetched.innerText.trim() : '',
		Time: fetched && fetched.querySelector('time') ? fetched.querySelector('time').getAttribute('datetime') : '',
		SplitCharts: Array.from(document.querySelectorAll('[data-chart]')).filter((c) => getComputedStyle(c).breakInside !== 'avoid').map(name),
		HiddenTables: tables.filter((t) => t.getBoundingClientRect().height === 0).length,
		Tables: tables.length,
		ShownControls: Array.from(document.querySelectorAll('header.site nav, nav.tabs, .freshness a, .freshness button, .share')).filter(shown).map(name),
	};
})()`

// TestReportPrintsAsADatedDocument prints /businesses/1001 the way Chromium
// prints to PDF, on A4 and on Letter: under the print stylesheet the date
// the data was fetched shows, forms, navigation and controls do not, charts
// keep whole and the data tables in closed details print too.
func TestReportPrintsAsADatedDocument(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/businesses/1001")
	if status := b.Navigate(app.URL + "/businesses/1001"); status != http.StatusOK {
		t.Fatalf("GET /businesses/1001: status %d", status)
	}
	if n := Eval[int](b, `document.forms.length`); n < 2 {
		t.Fatalf("the report has %d forms; the check below needs the time frame form and sign-out", n)
	}

	emulateMedia(b, "print")
	p := Eval[printed](b, printView)
	if len(p.ShownForms) > 0 {
		t.Errorf("forms print: %q", p.ShownForms)
	}
	if len(p.ShownControls) > 0 {
		t.Errorf("navigation and controls print: %q", p.ShownControls)
	}
	if !strings.Contains(p.Fetched, "Data fetched") || p.Time == "" {
		t.Errorf("the printed page carries no fetch date: line %q, datetime %q", p.Fetched, p.Time)
	}
	if Eval[int](b, `document.querySelectorAll('[data-chart]').length`) == 0 {
		t.Error("the report has no chart; the check of charts kept whole needs them")
	}
	if len(p.SplitCharts) > 0 {
		t.Errorf("charts may split across pages: %q", p.SplitCharts)
	}
	if p.Tables == 0 || p.HiddenTables > 0 {
		t.Errorf("%d of %d data tables in details do not print", p.HiddenTables, p.Tables)
	}
	b.Screenshot("print-media")
	emulateMedia(b, "")

	// Chromium's own print: the page's beforeprint handler draws every
	// chart, even those never scrolled to, and opens the details. With no
	// chart near the first screen, ECharts is there only once js/charts.js
	// has fetched it after the page went idle: wait for that.
	waitECharts(b)
	for _, paper := range []struct {
		name          string
		width, height float64
	}{{"A4", 8.27, 11.69}, {"Letter", 8.5, 11}} {
		res, err := chromedp.Call(b.Context(), page.PrintToPDF, page.PrintToPDFParams{
			PrintBackground: new(true), PaperWidth: paper.width, PaperHeight: paper.height,
		})
		if err != nil {
			t.Fatalf("print to PDF on %s: %v", paper.name, err)
		}
		if !bytes.HasPrefix(res.Data, []byte("%PDF-")) || len(res.Data) < 10_000 {
			t.Errorf("print to PDF on %s: %d bytes starting %q, want a PDF", paper.name, len(res.Data), res.Data[:min(8, len(res.Data))])
		}
	}
	if n := Eval[int](b, `document.querySelectorAll('[data-chart]:not([data-drawing])').length`); n > 0 {
		t.Errorf("%d charts were not drawn for print", n)
	}
	if n := Eval[int](b, `document.querySelectorAll('details[open]').length`); n > 0 {
		t.Errorf("%d details stayed open after print", n)
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
