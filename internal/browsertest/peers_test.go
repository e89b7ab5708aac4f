package browsertest

import (
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestPeerChartIsDrawn draws the Financials tab's peer chart: each ratio's
// peer range as a bar with the median and the business as markers, every
// part of its options present in the ECharts build, under the static CSP.
func TestPeerChartIsDrawn(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/businesses/1001/financials")
	checkChartsDrawn(t, b, 1)
	checked := auditCharts(t, b, 1)
	for _, part := range []string{"series[0] (bar)", "series[1] (line)", "series[2] (line)", "yAxis[0] (category)"} {
		found := false
		for _, c := range checked {
			if strings.HasSuffix(c, part) {
				found = true
			}
		}
		if !found {
			t.Errorf("peer chart: %q not checked on the live chart; checked %q", part, checked)
		}
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
