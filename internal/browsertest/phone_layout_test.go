package browsertest

import (
	"net/http"
	"testing"

	"creditdash/internal/apptest"
)

// TestPhoneRuleFormLabelsSitOverTheirFields opens /alerts on a phone: each
// label of the rule form sits right above its own control, however the
// form's row wraps (a label beside another field's control misleads).
func TestPhoneRuleFormLabelsSitOverTheirFields(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/alerts")
	for _, width := range []int64{phoneWidth, desktopWidth} {
		setViewport(b, width, phoneHeight, width < 600)
		if status := b.Navigate(app.URL + "/alerts"); status != http.StatusOK {
			t.Fatalf("GET /alerts: status %d", status)
		}
		astray := Eval[[]string](b, `(() => {
			const out = [];
			for (const l of document.querySelectorAll('form.rule-form label[for]')) {
				const c = document.getElementById(l.htmlFor);
				const lr = l.getBoundingClientRect(), cr = c.getBoundingClientRect();
				const above = lr.bottom <= cr.top + 1 && cr.top - lr.bottom < 12;
				const overlaps = lr.left < cr.right && cr.left < lr.right;
				if (!above || !overlaps) out.push(l.textContent.trim() + ' at ' + Math.round(lr.left) + ',' + Math.round(lr.top) + ', its field at ' + Math.round(cr.left) + ',' + Math.round(cr.top));
			}
			return out;
		})()`)
		if len(astray) > 0 {
			t.Errorf("at %d px, rule form labels not right above their fields: %q", width, astray)
		}
		b.Screenshot("alerts-" + map[bool]string{true: "phone", false: "desktop"}[width < 600])
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}

// TestPhoneCompareKeepsItsMeasures opens a comparison of three businesses
// on a phone and scrolls its table to the last business: the measure names
// stay in view beside the values.
func TestPhoneCompareKeepsItsMeasures(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	const path = "/compare?ids=1001,1002,1003"
	openSignedIn(t, app, b, path)
	setViewport(b, phoneWidth, phoneHeight, true)
	if status := b.Navigate(app.URL + path); status != http.StatusOK {
		t.Fatalf("GET %s: status %d", path, status)
	}
	type view struct {
		Scrolls                 bool
		RegionLeft, MeasureLeft float64
		Measure                 string
	}
	v := Eval[view](b, `(() => {
		const wrap = document.querySelector('table.compare').closest('.table-wrap');
		const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
		wrap.scrollLeft = wrap.scrollWidth;
		const th = document.querySelector('table.compare tbody th[scope=row]');
		return {Scrolls: scrolls, RegionLeft: wrap.getBoundingClientRect().left, MeasureLeft: th.getBoundingClientRect().left, Measure: th.textContent.trim()};
	})()`)
	if !v.Scrolls {
		t.Fatal("the comparison fits the phone without scrolling; the check below needs it to scroll")
	}
	if v.MeasureLeft < v.RegionLeft-1 {
		t.Errorf("scrolled to the last business, the measure %q is out of view (left %.0f, region %.0f)", v.Measure, v.MeasureLeft, v.RegionLeft)
	}
	b.Screenshot("compare-scrolled")
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
