package browsertest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// Selectors of the two-factor code form (templates/login_verify.templ).
const (
	codeField      = `#verify-form input#code`
	rememberBox    = `#verify-form input[name="remember"]`
	verifyButton   = `#verify-form button[type="submit"]`
	verifyError    = `#verify-error`
	twoFactorUser  = "secure"
	verifyPagePath = "/login/verify"
)

// sentCode is the code the stand-in last sent to the two-factor user.
func sentCode(t *testing.T, app *apptest.App) string {
	t.Helper()
	c, ok := app.Sim.LastCode(twoFactorUser)
	if !ok || c == "" {
		t.Fatalf("the stand-in sent no code to %s", twoFactorUser)
	}
	return c
}

// onCodeForm checks the browser shows the code form, with the field the
// phone can fill in, and that code is nowhere in the address.
func onCodeForm(t *testing.T, app *apptest.App, b *Browser, code string) {
	t.Helper()
	if got, want := b.URL(), app.URL+verifyPagePath; got != want {
		t.Fatalf("code form: at %q, want %q", got, want)
	}
	b.WaitVisible(codeField)
	if got := Eval[string](b, `document.querySelector(`+jsString(codeField)+`).getAttribute('autocomplete')`); got != "one-time-code" {
		t.Errorf("code field autocomplete = %q, want one-time-code", got)
	}
	noCodeInURL(t, b, code)
}

// noCodeInURL fails when code appears in the address of the page shown.
func noCodeInURL(t *testing.T, b *Browser, code string) {
	t.Helper()
	if u := b.URL(); strings.Contains(u, code) {
		t.Errorf("the code %s is in the address %q", code, u)
	}
}

// TestTwoFactorSharedLinkThenRememberedBrowser follows a shared link signed
// out through the sign-in and the code to the linked page, remembering the
// browser; after signing out, the next sign-in skips the code.
func TestTwoFactorSharedLinkThenRememberedBrowser(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	const link = "/businesses/1001/payments"

	b.Navigate(app.URL + link)
	if want := app.URL + "/login?next=" + url.QueryEscape(link); b.URL() != want {
		t.Fatalf("GET %s signed out: at %q, want %q", link, b.URL(), want)
	}
	b.WaitVisible(signInButton)

	if status := signIn(t, b, twoFactorUser); status != http.StatusOK {
		t.Fatalf("sign in as %s: code form status %d, want 200", twoFactorUser, status)
	}
	code := sentCode(t, app)
	onCodeForm(t, app, b, code)
	if b.Exists(userName) {
		t.Errorf("the code form shows a signed-in user (%s) before the code", userName)
	}
	b.NoCSPViolations(t)
	b.NoConsoleErrors(t)

	b.Fill(codeField, code)
	b.Click(rememberBox)
	if !Eval[bool](b, `document.querySelector(`+jsString(rememberBox)+`).checked`) {
		t.Fatal("clicking the remember box left it unticked")
	}
	if status := b.ClickNavigate(verifyButton); status != http.StatusOK {
		t.Fatalf("send the code: landing status %d, want 200", status)
	}
	if got, want := b.URL(), app.URL+link; got != want {
		t.Fatalf("after the code: at %q, want the linked page %q", got, want)
	}
	noCodeInURL(t, b, code)
	if got := b.Text(userName); got != twoFactorUser {
		t.Errorf("after the code: %s = %q, want %q", userName, got, twoFactorUser)
	}
	if got := b.Text(`nav.tabs a[aria-current="page"]`); got != "Payments" {
		t.Errorf("current tab = %q, want Payments", got)
	}
	checkChartsDrawn(t, b, 4)
	b.NoCSPViolations(t)
	b.NoConsoleErrors(t)

	// Signed out, the same browser signs in again without a code.
	if status := signOut(b); status != http.StatusOK {
		t.Fatalf("sign out: landing status %d", status)
	}
	if got, want := b.URL(), app.URL+"/login?reason=signed-out"; got != want {
		t.Fatalf("after sign-out: at %q, want %q", got, want)
	}
	if status := signIn(t, b, twoFactorUser); status != http.StatusOK {
		t.Fatalf("sign in again: landing status %d, want 200", status)
	}
	if got, want := b.URL(), app.URL+"/"; got != want {
		t.Fatalf("sign in again on a remembered browser: at %q, want home %q (the code form skipped)", got, want)
	}
	if got := b.Text(userName); got != twoFactorUser {
		t.Errorf("after signing in again: %s = %q, want %q", userName, got, twoFactorUser)
	}
	if again := sentCode(t, app); again != code {
		t.Errorf("signing in on a remembered browser sent a new code")
	}
	b.NoCSPViolations(t)
	b.NoConsoleErrors(t)
}

// TestTwoFactorWrongCode sends a wrong code: the form comes back with the
// attempts left, empty and usable, and the right code then signs in.
func TestTwoFactorWrongCode(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)

	b.Navigate(app.URL + "/login")
	if status := signIn(t, b, twoFactorUser); status != http.StatusOK {
		t.Fatalf("sign in as %s: code form status %d, want 200", twoFactorUser, status)
	}
	code := sentCode(t, app)
	onCodeForm(t, app, b, code)

	// The right code with its last digit changed is surely wrong.
	last := (code[len(code)-1]-'0'+1)%10 + '0'
	wrong := code[:len(code)-1] + string(rune(last))
	b.Fill(codeField, wrong)
	if status := b.ClickNavigate(verifyButton); status != http.StatusUnprocessableEntity {
		t.Errorf("a wrong code: status %d, want %d", status, http.StatusUnprocessableEntity)
	}
	onCodeForm(t, app, b, code)
	noCodeInURL(t, b, wrong)
	want := "The code is not right: 4 attempts left." // the service's own count
	if got := b.Text(verifyError); got != want {
		t.Errorf("after a wrong code: message %q, want %q", got, want)
	}
	if got := Eval[string](b, `document.querySelector(`+jsString(codeField)+`).getAttribute('aria-describedby')`); got != "verify-error" {
		t.Errorf("code field aria-describedby = %q, want verify-error", got)
	}
	if got := Eval[string](b, `document.querySelector(`+jsString(codeField)+`).value`); got != "" {
		t.Errorf("after a wrong code: the field holds %q, want it empty", got)
	}
	if Eval[bool](b, `document.documentElement.outerHTML.includes(`+jsString(wrong)+`) || document.documentElement.outerHTML.includes(`+jsString(code)+`)`) {
		t.Error("the page after a wrong code holds the code sent or typed")
	}
	if Eval[bool](b, `document.querySelector(`+jsString(verifyButton)+`).disabled`) {
		t.Error("after a wrong code: the Verify button is disabled")
	}
	b.NoCSPViolations(t)
	noErrorsBut422(t, b)

	// The form still works: the right code signs in.
	b.Fill(codeField, code)
	if status := b.ClickNavigate(verifyButton); status != http.StatusOK {
		t.Fatalf("the right code after a wrong one: landing status %d, want 200", status)
	}
	if got, want := b.URL(), app.URL+"/"; got != want {
		t.Fatalf("after the right code: at %q, want %q", got, want)
	}
	noCodeInURL(t, b, code)
	if got := b.Text(userName); got != twoFactorUser {
		t.Errorf("after the right code: %s = %q, want %q", userName, got, twoFactorUser)
	}
	b.NoCSPViolations(t)
	noErrorsBut422(t, b)
}

// noErrorsBut422 is NoConsoleErrors except for the browser's own network
// line for the code form answered 422 after a wrong code: Chromium logs
// every document with an error status, and the status is meant.
func noErrorsBut422(t *testing.T, b *Browser) {
	t.Helper()
	var bad []string
	for _, m := range b.Console() {
		if !isError(m) {
			continue
		}
		u, err := url.Parse(m.URL)
		if m.Source == "network" && err == nil && u.Path == verifyPagePath && strings.Contains(m.Text, "422") {
			continue
		}
		bad = append(bad, describe(m))
	}
	if len(bad) > 0 {
		t.Errorf("browser console has %d error(s):\n\t%s", len(bad), strings.Join(bad, "\n\t"))
	}
}
