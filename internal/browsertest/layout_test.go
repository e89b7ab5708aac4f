package browsertest

import (
	"net/http"
	"strconv"
	"testing"

	"creditdash/internal/apptest"
)

// Issue 31's layout slips, each checked on a laptop window (1366 px) and a
// phone (390 px) from the element boxes the browser laid out
// (getBoundingClientRect), not from screenshots: each check fails on the
// page as it was before its fix.

// layoutWidths are the two screens every layout check runs on.
var layoutWidths = []int64{1366, phoneWidth}

// layoutCheck is one slip: the page it shows on and a script returning
// what is wrong there ([] when the layout holds).
type layoutCheck struct {
	name, path string
	js         string
}

// boxJS defines bx(el), an element's box rounded to the pixel.
const boxJS = `const bx = (e) => { const r = e.getBoundingClientRect(); return {l: Math.round(r.left), t: Math.round(r.top), r: Math.round(r.right), b: Math.round(r.bottom), w: Math.round(r.width), h: Math.round(r.height)}; };
const at = (b) => b.l + ',' + b.t + '–' + b.r + ',' + b.b;`

// cardsLevel: cards in one row of a grid start at the same height (a
// second card 16 px lower was the slip).
const cardsLevel = `(() => { ` + boxJS + `
	const out = [];
	const grids = document.querySelectorAll('main .grid');
	if (grids.length === 0) return ['no card grid on the page'];
	for (const g of grids) {
		const cards = Array.from(g.children).filter((c) => c.classList.contains('card'));
		for (let i = 1; i < cards.length; i++) {
			const a = bx(cards[i - 1]), b = bx(cards[i]);
			const sameRow = b.l > a.l + 10;
			if (sameRow && Math.abs(a.t - b.t) > 1) out.push('cards side by side start at ' + a.t + ' and ' + b.t);
			if (!sameRow && b.t - a.b > 20) out.push('stacked cards ' + (b.t - a.b) + ' px apart');
		}
	}
	return out;
})()`

// heatFits: the score map's caption lies within its scrolling region, and
// no month column lies under the sticky business names: on a laptop as
// opened, on a phone once scrolled back to the first month.
const heatFits = `(() => { ` + boxJS + `
	const out = [];
	const t = document.querySelector('table.heat');
	const wrap = t.closest('.table-wrap');
	const w = bx(wrap), cap = bx(t.querySelector('caption'));
	const capText = t.querySelector('caption');
	if (cap.l < w.l - 1 || cap.r > w.r + 1) out.push('caption at ' + at(cap) + ' outside its region ' + at(w));
	if (capText.scrollWidth > capText.clientWidth + 1) out.push('caption text cut');
	const ths = Array.from(t.querySelectorAll('thead th'));
	const names = bx(ths[0]);
	const check = (when) => {
		for (const th of ths.slice(1)) {
			const b = bx(th);
			if (b.r <= w.l || b.l >= w.r) continue; // scrolled out of view
			if (b.l < names.r - 1) out.push(when + ': month ' + th.textContent + ' at ' + at(b) + ' under the names ending at ' + names.r);
		}
	};
	if (innerWidth >= 1000) {
		if (wrap.scrollWidth > wrap.clientWidth + 1) out.push('a year of months needs ' + wrap.scrollWidth + ' px, the region has ' + wrap.clientWidth);
		check('as opened');
	}
	wrap.scrollLeft = -wrap.scrollWidth; // the first month (the region is right-to-left)
	check('scrolled to the first month');
	wrap.scrollLeft = 0;
	return out;
})()`

// quadrantFits: every quadrant table shows its last column, Pay change,
// inside its card, with no sideways scrolling.
const quadrantFits = `(() => { ` + boxJS + `
	const out = [];
	const tables = document.querySelectorAll('table.quadrant-table');
	if (tables.length === 0) return ['no quadrant table'];
	for (const t of tables) {
		const wrap = t.closest('.table-wrap'), card = bx(t.closest('.card'));
		const last = t.querySelector('thead th:last-child'), b = bx(last);
		if (b.r > bx(wrap).r + 1 || b.r > card.r + 1) out.push(t.querySelector('caption').textContent + ': ' + last.textContent + ' at ' + at(b) + ' beyond ' + at(card));
		if (wrap.scrollWidth > wrap.clientWidth + 1) out.push(t.querySelector('caption').textContent + ' scrolls sideways');
	}
	return out;
})()`

// checkboxesBeside: each peer filter's checkbox sits on its label's line,
// before the words.
const checkboxesBeside = `(() => { ` + boxJS + `
	const out = [];
	const boxes = document.querySelectorAll('form input[type=checkbox]');
	if (boxes.length === 0) return ['no checkbox'];
	for (const i of boxes) {
		const l = i.closest('label');
		const r = document.createRange();
		r.selectNodeContents(l);
		r.setStartAfter(i);
		const words = r.getClientRects()[0];
		const c = bx(i);
		const mid = (c.t + c.b) / 2;
		if (!words || mid < words.top || mid > words.bottom || c.r > words.left + 1) out.push(l.textContent.trim() + ': checkbox at ' + at(c) + ', words at ' + (words ? Math.round(words.left) + ',' + Math.round(words.top) : 'none'));
	}
	return out;
})()`

// noteEditRoomy: the in-place edit box of a note is as wide as its form
// allows (up to 70 characters) and four lines tall, not the browser's
// default 20 columns.
const noteEditRoomy = `(() => { ` + boxJS + `
	const ta = document.querySelector('.note-edit textarea');
	if (!ta) return ['no note to edit'];
	ta.closest('details').open = true;
	const t = bx(ta), f = bx(ta.closest('form'));
	const ch = parseFloat(getComputedStyle(ta).fontSize) * 0.5 * 70;
	const want = Math.min(f.w, ch) * 0.9;
	const line = parseFloat(getComputedStyle(ta).lineHeight) || 20;
	const out = [];
	if (t.w < want) out.push('edit box ' + t.w + ' px wide in a form of ' + f.w + ' px');
	if (t.h < 4 * line) out.push('edit box ' + t.h + ' px tall');
	return out;
})()`

func TestLayoutHolds(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/businesses/1001")
	b.Fill("#note-text", "A note to edit in place.")
	if status := b.ClickNavigate(".note-form button[type=submit]"); status != http.StatusOK {
		t.Fatalf("adding a note: status %d", status)
	}
	folder := 0
	for _, u := range apptest.DemoData().Users {
		if u.Username == "demo" {
			folder = u.Folders[0].FolderID
		}
	}
	checks := []layoutCheck{
		{name: "home cards level", path: "/", js: cardsLevel},
		{name: "folder cards level", path: "/portfolio/folders/" + strconv.Itoa(folder), js: cardsLevel},
		{name: "score map caption and months", path: "/portfolio/scores", js: heatFits},
		{name: "quadrant tables show Pay change", path: "/portfolio/quadrant", js: quadrantFits},
		{name: "peer checkboxes beside their labels", path: "/businesses/1001/financials", js: checkboxesBeside},
		{name: "note edit box roomy", path: "/businesses/1001", js: noteEditRoomy},
	}
	for _, w := range layoutWidths {
		setViewport(b, w, 900, w < 600)
		for _, c := range checks {
			if status := b.Navigate(app.URL + c.path); status != http.StatusOK {
				t.Fatalf("GET %s: status %d", c.path, status)
			}
			if wrong := Eval[[]string](b, c.js); len(wrong) > 0 {
				t.Errorf("%s at %d px (%s): %q", c.name, w, c.path, wrong)
				b.Screenshot(strconv.FormatInt(w, 10) + "-" + c.name)
			}
		}
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
