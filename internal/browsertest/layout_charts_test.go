package browsertest

import (
	"fmt"
	"net/http"
	"testing"

	"creditdash/internal/apptest"
)

// The compare page's score charts write their legends below their titles,
// never over them, on screen and on paper (where the legend shows every
// business at once and may take more rows), at 1366 and 390 px.
func TestCompareChartLegendsClearTheirTitles(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	const path = "/compare?ids=1001,1002,1005"
	openSignedIn(t, app, b, path)
	for _, w := range layoutWidths {
		for _, media := range []string{"", "print"} {
			setViewport(b, w, 900, w < 600)
			emulateMedia(b, "")
			if status := b.Navigate(app.URL + path); status != http.StatusOK {
				t.Fatalf("GET %s: status %d", path, status)
			}
			drawCharts(b)
			if media == "print" {
				emulateMedia(b, "print")
				Eval[bool](b, `window.dispatchEvent(new Event('beforeprint')), true`)
			}
			ids := Eval[[]string](b, `Array.from(document.querySelectorAll('[data-chart]')).map((e) => '#' + e.id)`)
			if len(ids) < 4 {
				t.Fatalf("%d charts on %s, want 4", len(ids), path)
			}
			for _, id := range ids {
				r := Eval[struct {
					Texts    int
					Overlaps []string
				}](b, chartTextOverlaps+`(`+jsString(id)+`)`)
				if r.Texts < 4 {
					t.Errorf("%s at %d px %s: %d texts drawn; the check needs the title and legend", id, w, media, r.Texts)
				}
				if len(r.Overlaps) > 0 {
					t.Errorf("%s at %d px %s: texts over each other: %q", id, w, media, r.Overlaps)
				}
			}
			b.Screenshot(fmt.Sprintf("%dpx-%s", w, media))
		}
	}
	emulateMedia(b, "")
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
