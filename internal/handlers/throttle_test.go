package handlers_test

import (
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
)

// Wrong passwords for one name from one place are held after ten, with the
// time to come back, the name kept and the service not asked; another name
// still signs in, and the hold ends with its window.
func TestSignInThrottleHoldsWrongPasswords(t *testing.T) {
	app, rec, clk := twoFactorApp(t)
	u := app.NewUser(t)
	for i := range 10 {
		if p := u.Login("Demo", "wrong", ""); p.Status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: status %d, want 401", i+1, p.Status)
		}
	}
	before := rec.calls()
	p := u.Login("demo", "demo", "/portfolio")
	if p.Status != http.StatusTooManyRequests {
		t.Fatalf("the right password after ten wrong ones: status %d, want 429", p.Status)
	}
	if s, err := strconv.Atoi(p.Header.Get("Retry-After")); err != nil || s <= 0 || s > 15*60+1 {
		t.Errorf("Retry-After %q, want seconds within the 15-minute window", p.Header.Get("Retry-After"))
	}
	if msg := p.Text("[role=alert]"); !strings.Contains(msg, "Too many failed sign-ins") || !strings.Contains(msg, "after ") {
		t.Errorf("message %q, want one about too many failed sign-ins and until when", msg)
	}
	if v, _ := p.Doc.Find(`input[name="username"]`).Attr("value"); v != "demo" {
		t.Errorf("the user name field holds %q, want demo as typed", v)
	}
	if rec.calls() != before {
		t.Error("the held sign-in reached the service")
	}
	if p := app.NewUser(t).Login("trade", "demo", ""); p.Status != http.StatusSeeOther {
		t.Errorf("another name from the same place: status %d, want 303", p.Status)
	}
	clk.Advance(15*time.Minute + time.Second)
	if p := u.Login("demo", "demo", ""); p.Status != http.StatusSeeOther {
		t.Errorf("after the window: status %d, want 303", p.Status)
	}
}

// Each sign-in of a two-factor account texts a code; after five in the
// window a sixth sign-in is held, while the code step still takes the
// latest code.
func TestSignInThrottleHoldsCodes(t *testing.T) {
	app, _, _ := twoFactorApp(t)
	u := app.NewUser(t)
	var form = startSignIn(t, u, "secure", "/portfolio")
	for range 4 {
		form = startSignIn(t, u, "secure", "/portfolio")
	}
	p := u.Login("secure", "demo", "/portfolio")
	if p.Status != http.StatusTooManyRequests || !strings.Contains(p.Text("[role=alert]"), "several codes") {
		t.Fatalf("a sixth sign-in: status %d, message %q; want 429 about the codes sent", p.Status, p.Text("[role=alert]"))
	}
	if p := sendCode(t, u, form, code(t, app, "secure"), false); p.Status != http.StatusSeeOther || p.Location() != "/portfolio" {
		t.Errorf("the latest code: status %d to %q, want 303 to /portfolio", p.Status, p.Location())
	}
}

// Wrong codes count as failed sign-ins: a script cycling sign-in and code
// guesses is held like one guessing passwords.
func TestSignInThrottleCountsWrongCodes(t *testing.T) {
	app, _, _ := twoFactorApp(t)
	u := app.NewUser(t)
	wrong := "000000"
	for i := 0; i < 10; {
		form := startSignIn(t, u, "secure2", "")
		if code(t, app, "secure2") == wrong {
			continue
		}
		for range 2 {
			sendCode(t, u, form, wrong, false)
			i++
		}
	}
	form := u.Get("/login/verify")
	p := sendCode(t, u, form, code(t, app, "secure2"), false)
	if p.Status != http.StatusTooManyRequests || p.Doc.Find("#verify-form").Length() != 1 {
		t.Errorf("the right code after ten wrong ones: status %d, want 429 with the form kept", p.Status)
	}
}

// Behind a trusted proxy the throttle counts each client by the address the
// proxy saw: one client's wrong passwords hold neither a colleague behind
// the same proxy nor, by a forged header, buy the client more tries.
func TestSignInThrottleBehindTrustedProxy(t *testing.T) {
	app := apptest.Start(t, apptest.Options{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	// What nginx sends: the client's own header, then the address it saw.
	attacker := app.NewUser(t)
	attacker.Header.Set("X-Forwarded-For", "198.51.100.7, 203.0.113.5")
	for i := range 10 {
		if p := attacker.Login("demo", "wrong", ""); p.Status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: status %d, want 401", i+1, p.Status)
		}
	}
	if p := attacker.Login("demo", "demo", ""); p.Status != http.StatusTooManyRequests {
		t.Fatalf("the client after ten wrong passwords: status %d, want 429", p.Status)
	}
	for _, msg := range []string{"sign-in failed", "sign-in throttled"} {
		if logs := app.Logs.String(); !strings.Contains(logs, `msg="`+msg+`" `) || strings.Count(logs, "client=203.0.113.5") < 11 {
			t.Errorf("the log does not name the client 203.0.113.5 on each %q", msg)
		}
	}
	colleague := app.NewUser(t)
	colleague.Header.Set("X-Forwarded-For", "203.0.113.6")
	if p := colleague.Login("demo", "demo", ""); p.Status != http.StatusSeeOther {
		t.Errorf("another client behind the same proxy: status %d, want 303", p.Status)
	}
	forger := app.NewUser(t)
	forger.Header.Set("X-Forwarded-For", "203.0.113.6, 203.0.113.5")
	if p := forger.Login("demo", "demo", ""); p.Status != http.StatusTooManyRequests {
		t.Errorf("the held client naming another address in its own header: status %d, want 429", p.Status)
	}
}

// With no trusted proxy, X-Forwarded-For is anyone's to write and is not
// believed: a new address in it buys no more tries.
func TestSignInThrottleIgnoresForwardedForByDefault(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	attacker := app.NewUser(t)
	for i := range 10 {
		attacker.Header.Set("X-Forwarded-For", "203.0.113."+strconv.Itoa(i))
		if p := attacker.Login("demo", "wrong", ""); p.Status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: status %d, want 401", i+1, p.Status)
		}
	}
	attacker.Header.Set("X-Forwarded-For", "203.0.113.99")
	if p := attacker.Login("demo", "demo", ""); p.Status != http.StatusTooManyRequests {
		t.Errorf("ten wrong passwords, each with another forwarded address: status %d, want 429", p.Status)
	}
}
