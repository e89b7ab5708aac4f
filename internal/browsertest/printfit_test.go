package browsertest

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// printWidth is the width A4 leaves for the page between the print
// stylesheet's margins (210 mm less 2 × 10 mm), in CSS pixels.
const printWidth = 718

// printFit is what printFitView measures under the print stylesheet.
type printFit struct {
	// Past lists elements that reach past the paper's right edge.
	Past []string
	// Sticky lists table cells that still stick to a scroll position.
	Sticky []string
	// Position is the pager's "rows … of …" as printed, "" if hidden.
	Position string
	// Empty lists cards that print as a heading over nothing (their form
	// hidden on paper); a chart's card has its drawing.
	Empty []string
}

const printFitView = `(() => {
	const iw = window.innerWidth;
	const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
		(el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '');
	const past = [];
	for (const el of document.querySelectorAll('main *')) {
		const r = el.getBoundingClientRect();
		if (r.width > 0 && r.right > iw + 1) past.push(name(el) + ' "' + el.textContent.trim().slice(0, 30) + '" right=' + Math.round(r.right));
	}
	const sticky = Array.from(document.querySelectorAll('th, td')).filter((c) => getComputedStyle(c).position === 'sticky').map(name);
	const pos = Array.from(document.querySelectorAll('.pager .position')).find((p) => p.getClientRects().length > 0);
	const empty = Array.from(document.querySelectorAll('main .card')).filter((c) => {
		if (c.getClientRects().length === 0 || c.querySelector('[data-chart]')) return false;
		const h = c.querySelector('h2, h3');
		return c.innerText.trim() === (h ? h.innerText.trim() : '');
	}).map((c) => (c.querySelector('h2, h3') || c).textContent.trim());
	return {Past: past.slice(0, 8), Sticky: sticky.slice(0, 5), Position: pos ? pos.textContent.trim() : '', Empty: empty};
})()`

// TestEveryPagePrintsWithinThePaper lays every main page out at the width
// A4 prints, under the print stylesheet: nothing reaches past the paper's
// edge (a wide table's last columns or digits would be cut off), no table
// cell sticks to a scroll position, no card is an empty box (its form does
// not print), and a paged table says which rows it holds.
func TestEveryPagePrintsWithinThePaper(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/portfolio")
	setViewport(b, printWidth, 1000, false)
	pages := append(mainPages(),
		[2]string{"compare", "/compare?ids=1001,1002,1003"},
		[2]string{"stress", "/portfolio/stress"},
		[2]string{"quadrant", "/portfolio/quadrant"},
		[2]string{"alerts", "/alerts"},
		[2]string{"workspace", "/settings/workspace"},
	)
	for _, p := range pages {
		name, path := p[0], p[1]
		if status := b.Navigate(app.URL + path); status != http.StatusOK {
			t.Errorf("GET %s: status %d", path, status)
			continue
		}
		emulateMedia(b, "print")
		f := Eval[printFit](b, printFitView)
		if len(f.Past) > 0 {
			t.Errorf("%s printed on A4: past the paper's edge: %s", path, strings.Join(f.Past, "; "))
		}
		if len(f.Sticky) > 0 {
			t.Errorf("%s printed: cells still sticky: %q", path, f.Sticky)
		}
		if len(f.Empty) > 0 {
			t.Errorf("%s printed: cards with nothing under their heading: %q", path, f.Empty)
		}
		if strings.HasPrefix(path, "/portfolio/scores") && !strings.Contains(f.Position, " of ") {
			t.Errorf("%s printed: the rows shown are not said (position %q)", path, f.Position)
		}
		b.Screenshot("print-" + name)
		emulateMedia(b, "")
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
