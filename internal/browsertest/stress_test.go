package browsertest

import (
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// Folder stress draws its two line charts, every part of their options in
// the build, without a CSP violation, and stays readable on a 390 px phone.
func TestStressChartsDraw(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/portfolio/stress")
	auditCharts(t, b, 2)

	setViewport(b, phoneWidth, phoneHeight, true)
	b.Navigate(app.URL + "/portfolio/stress")
	drawCharts(b)
	if l := Eval[layoutReport](b, pageLayout); l.ScrollWidth > l.InnerWidth {
		t.Errorf("at %d px the page is %d px wide and scrolls sideways; too wide: %s", phoneWidth, l.ScrollWidth, strings.Join(l.Wide, ", "))
	}
	b.Screenshot("390-stress")
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
