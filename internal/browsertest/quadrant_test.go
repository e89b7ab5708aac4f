package browsertest

import (
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
