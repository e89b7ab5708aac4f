package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// markControls numbers every control a keyboard user must reach (links,
// buttons, form fields, summaries, focusable regions) that is shown, in
// data-kb, records how each looks unfocused, and returns their names. A
// radio group is one tab stop, so only its first radio counts, standing for
// the group (data-kb-group holds the group's name).
const markControls = `(() => {
	if (document.activeElement) document.activeElement.blur();
	window.scrollTo(0, 0);
	const sel = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex="0"]';
	const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' &&
		!el.closest('details:not([open]) > :not(summary)') && !el.closest('[inert], [hidden]');
	const name = (el) => {
		const label = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('name') || el.getAttribute('href') || '').replace(/\s+/g, ' ').trim();
		return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' + label.slice(0, 40) + '"';
	};
	const look = (el) => { const s = getComputedStyle(el); return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow].join('|'); };
	window.__kb = {looks: [], names: []};
	const radios = new Set();
	for (const el of document.querySelectorAll(sel)) {
		if (el.disabled || !shown(el) || el.getAttribute('tabindex') === '-1') continue;
		if (el.type === 'radio') {
			const group = (el.form ? el.form.id + '/' : '') + el.name;
			if (radios.has(group)) { el.setAttribute('data-kb-group', group); continue; }
			radios.add(group);
			el.setAttribute('data-kb-group', group);
		}
		el.setAttribute('data-kb', String(window.__kb.names.length));
		window.__kb.names.push(name(el));
		window.__kb.looks.push(look(el));
	}
	return window.__kb.names;
})()`

// focusNow describes the focused element after a Tab: which control it is
// (-1 for none of them), whether it looks different from unfocused, and a
// name for the report.
const focusNow = `(() => {
	const el = document.activeElement;
	if (!el || el === document.body) return {Index: -2, Changed: false, Name: 'body'};
	let kb = el.getAttribute('data-kb');
	if (kb === null && el.hasAttribute('data-kb-group')) {
		const first = document.querySelector('[data-kb-group="' + CSS.escape(el.getAttribute('data-kb-group')) + '"][data-kb]');
		if (first) kb = first.getAttribute('data-kb');
	}
	const s = getComputedStyle(el);
	const now = [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow].join('|');
	const shows = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
	const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' + (el.getAttribute('aria-label') || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 40) + '"';
	if (kb === null) return {Index: -1, Changed: shows, Name: name};
	const before = window.__kb.looks[Number(kb)];
	const unfocused = el.hasAttribute('data-kb') ? before : '';
	return {Index: Number(kb), Changed: shows && (unfocused === '' || now !== unfocused), Name: name};
})()`

// focused is what focusNow returns.
type focused struct {
	Index   int
	Changed bool
	Name    string
}

// tab presses Tab once, as a keyboard does, and returns what has focus.
func tab(b *Browser) focused {
	b.t.Helper()
	ctx := b.Context()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
		b.fatalf("press Tab: %v", err)
	}
	return Eval[focused](b, focusNow)
}

// TestKeyboardWalkEveryPage tabs through every page at 390 and 1360 px:
// each control is reached, in one pass, and shows a visible focus
// indicator (its outline or shadow differs from when it is not focused).
func TestKeyboardWalkEveryPage(t *testing.T) {
	visitAuditPages(t, func(t *testing.T, b *Browser, p auditPage, width int64) {
		where := fmt.Sprintf("%s at %d px", p.Path, width)
		names := Eval[[]string](b, markControls)
		reached := make([]bool, len(names))
		var noRing []string
		// Focus may start past the top (a field with autofocus), so the walk
		// goes round: it ends when every control is reached or focus has
		// left the page twice; the bound stops a focus trap.
		left, seen := 0, 0
		for i := 0; i < 2*len(names)+40 && seen < len(names) && left < 2; i++ {
			f := tab(b)
			switch {
			case f.Index == -2:
				left++
				continue
			case f.Index >= 0 && !reached[f.Index]:
				reached[f.Index] = true
				seen++
			case f.Index >= 0:
				// A month field's parts, or a second round: checked already.
				continue
			}
			if !f.Changed {
				noRing = append(noRing, f.Name)
			}
		}
		var missed []string
		for i, ok := range reached {
			if !ok {
				missed = append(missed, names[i])
			}
		}
		if len(missed) > 0 {
			t.Errorf("%s: %d of %d controls never reached by Tab:\n\t%s", where, len(missed), len(names), strings.Join(missed, "\n\t"))
		}
		if len(noRing) > 0 {
			t.Errorf("%s: no visible focus indicator on:\n\t%s", where, strings.Join(noRing, "\n\t"))
		}
		if len(names) == 0 {
			t.Errorf("%s: no controls found", where)
		}
		t.Logf("%s: %d controls", where, len(names))
	})
}
