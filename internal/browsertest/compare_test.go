package browsertest

import (
	"net/http"
	"testing"

	"creditdash/internal/apptest"
)

// The compare page draws its four score charts, each with every part of
// its options in the build, and without a CSP violation.
func TestCompareChartsDraw(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/compare?ids=1001,1002,1005")
	auditCharts(t, b, 4)
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
	if status := b.Navigate(app.URL + "/compare?ids=1001,abc"); status != http.StatusOK {
		t.Fatalf("one id left: status %d", status)
	}
}
