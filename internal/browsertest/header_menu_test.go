package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"creditdash/internal/apptest"
)

// TestAccountMenuClosesLikeAMenu: with js/menu.js the account menu closes
// the way users expect, at 1366 px by mouse and at 390 px by touch. Opened
// and tabbed into, Escape closes it with the focus back on its summary; a
// press beside it (on the page, away from any link) closes it; a press on
// its panel between items leaves it open, and its Watch list link then
// works. With scripts off, the <details> still opens and closes on its
// summary and its link still works.
func TestAccountMenuClosesLikeAMenu(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	b.Navigate(app.URL + "/login")
	if status := signIn(t, b, "trade"); status != http.StatusOK {
		t.Fatalf("sign in as trade: status %d", status)
	}
	for _, size := range []struct {
		w, h  int64
		touch bool
	}{{1366, 768, false}, {phoneWidth, phoneHeight, true}} {
		setViewport(b, size.w, size.h, size.touch)
		emulate(b, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: size.touch})
		where := "/ at " + strconv.FormatInt(size.w, 10) + " px"
		// Each check starts on a new page, the menu pressed open, so
		// one that fails leaves the next to stand alone.
		openMenu := func() {
			t.Helper()
			b.Navigate(app.URL + "/")
			press(b, accountMenuSummary, size.touch)
			if m := Eval[menuReport](b, accountMenu); !m.Open {
				t.Fatalf("%s: the account menu's summary pressed leaves it closed", where)
			}
		}
		openMenu()
		if f := tab(b); f.Name != `a "Watch list"` {
			t.Fatalf("%s: Tab from the opened account menu reaches %s, want its Watch list", where, f.Name)
		}
		b.step("press Escape", chromedp.KeyEvent(kb.Escape))
		if m := Eval[menuReport](b, accountMenu); m.Open {
			t.Errorf("%s: Escape leaves the account menu open, showing %q", where, m.Shown)
		}
		if !Eval[bool](b, `document.activeElement === document.querySelector(`+jsString(accountMenuSummary)+`)`) {
			t.Errorf("%s: after Escape the focus is on %s, want the menu's summary", where, Eval[focused](b, focusNow).Name)
		}

		openMenu()
		beside := Eval[point](b, besideMenu)
		if beside.Hit != "" {
			t.Fatalf("%s: no place beside the open menu to press: %s", where, beside.Hit)
		}
		pressAt(b, beside, size.touch)
		if m := Eval[menuReport](b, accountMenu); m.Open || b.URL() != app.URL+"/" {
			t.Errorf("%s: a press beside the account menu (%.0f, %.0f) leaves it open %v, at %s", where, beside.X, beside.Y, m.Open, b.URL())
		}

		openMenu()
		// By mouse only: a finger there is taken (as a phone takes it) for
		// the Sign out button a few pixels away.
		if !size.touch {
			pressAt(b, Eval[point](b, menuPanelGap), false)
			if m := Eval[menuReport](b, accountMenu); !m.Open {
				t.Errorf("%s: a press on the menu's panel, between its items, closes it", where)
			}
		}
		// Pressed down on, Watch list is still there to be let go on.
		link := Eval[point](b, centreOf(`header.site .account-menu a[href="/watchlist"]`))
		b.step("press down on Watch list", pressHalf(link, size.touch, true))
		if m := Eval[menuReport](b, accountMenu); !m.Open {
			t.Errorf("%s: pressing down on Watch list closes the menu before the link can work", where)
			b.step("let go", pressHalf(link, size.touch, false))
			continue
		}
		resp, err := chromedp.RunResponse(b.Context(), pressHalf(link, size.touch, false))
		if err != nil || resp == nil || resp.Status != http.StatusOK || b.URL() != app.URL+"/watchlist" {
			t.Errorf("%s: pressing Watch list in the open menu: %v at %s, want the watch list", where, err, b.URL())
		}
	}
	emulate(b, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: false})
	setViewport(b, 1366, 768, false)
	emulate(b, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
	b.Navigate(app.URL + "/")
	for _, want := range []bool{true, false, true} {
		b.Click(accountMenuSummary)
		if open := Eval[bool](b, `document.querySelector('header.site .account-menu').open`); open != want {
			t.Errorf("with scripts off, the account menu's summary pressed: open %v, want %v", open, want)
		}
	}
	// Proof that scripts are off: Escape leaves the menu open.
	b.step("press Escape", chromedp.KeyEvent(kb.Escape))
	if !Eval[bool](b, `document.querySelector('header.site .account-menu').open`) {
		t.Fatal("with scripts off, Escape closed the account menu: js/menu.js still ran")
	}
	if status := b.ClickNavigate(`header.site .account-menu a[href="/watchlist"]`); status != http.StatusOK || b.URL() != app.URL+"/watchlist" {
		t.Errorf("with scripts off, Watch list in the open menu: status %d at %s", status, b.URL())
	}
	emulate(b, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: false})
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}

// emulate sets one of the page's emulations (touch, scripts off).
func emulate[P any](b *Browser, cmd cdp.Command[P, cdp.Empty], params P) {
	b.t.Helper()
	if _, err := chromedp.Call(b.Context(), cmd, params); err != nil {
		b.fatalf("emulate %+v: %v", params, err)
	}
}

// point is a place in the window to press; Hit names what is wrong with
// it ("" when it is fine).
type point struct {
	X, Y float64
	Hit  string
}

// besideMenu is a place just left of the open menu's panel, at its middle
// height, where nothing would act on a press (no link, button or field),
// or in Hit what is there.
const besideMenu = `(() => {
	const panel = document.querySelector('header.site .account-menu > nav').getBoundingClientRect();
	const x = Math.max(4, panel.left - 40), y = panel.top + panel.height / 2;
	const el = document.elementFromPoint(x, y);
	const hit = !el ? 'nothing' : el.closest('.account-menu') ? 'the menu' :
		el.closest('a, button, input, select, textarea, summary, label') ? el.outerHTML.slice(0, 80) : '';
	return {X: x, Y: y, Hit: hit};
})()`

// menuPanelGap is a place on the open menu's panel above Sign out, in the
// gap between the items and the line over it.
const menuPanelGap = `(() => {
	const out = document.querySelector('header.site .account-menu .signout').getBoundingClientRect();
	return {X: out.left + out.width / 2, Y: out.top + 2, Hit: ''};
})()`

// press clicks (or, with touch, taps) the centre of the first element
// matching sel.
func press(b *Browser, sel string, touch bool) {
	b.t.Helper()
	pressAt(b, Eval[point](b, centreOf(sel)), touch)
}

// pressAt clicks or taps at p.
func pressAt(b *Browser, p point, touch bool) {
	b.t.Helper()
	b.step(fmt.Sprintf("press at (%.0f, %.0f)", p.X, p.Y), pressAction(p, touch))
}

// pressAction clicks or taps at p.
func pressAction(p point, touch bool) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(pressHalf(p, touch, true), pressHalf(p, touch, false))
}

// pressHalf presses a mouse's left button (or a finger) down at p, or
// lets it go.
func pressHalf(p point, touch, down bool) chromedp.Action[chromedp.Void] {
	if !touch {
		typ := chromedp.MouseReleased
		if down {
			typ = chromedp.MousePressed
		}
		return chromedp.MouseEvent(typ, p.X, p.Y, chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1))
	}
	return chromedp.Func(func(ctx context.Context, tab *chromedp.Target) error {
		// A touch's end carries no points.
		ev := input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}}
		if down {
			r, id := 1.0, 0.0
			ev = input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart,
				TouchPoints: []*input.TouchPoint{{X: p.X, Y: p.Y, RadiusX: &r, RadiusY: &r, ID: &id}}}
		}
		_, err := cdp.Call(ctx, tab, input.DispatchTouchEvent, ev)
		return err
	})
}

// centreOf is the centre of the first element matching sel, in the window.
func centreOf(sel string) string {
	return `(() => {
		const r = document.querySelector(` + jsString(sel) + `).getBoundingClientRect();
		return {X: r.left + r.width / 2, Y: r.top + r.height / 2, Hit: ''};
	})()`
}
