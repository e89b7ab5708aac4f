package browsertest

import (
	"net/http"
	"net/url"
	"testing"

	"creditdash/internal/apptest"
)

// Selectors of the sign-in and sign-out forms, as the layout and the sign-in
// page render them.
const (
	signInButton  = `form[action="/login"] button[type="submit"]`
	signOutButton = `form[action="/logout"] button[type="submit"]`
	// accountMenuSummary opens the header's account menu, Sign out in it.
	accountMenuSummary = `header.site .account-menu > summary`
	userName           = `header .user`
)

// sharedLink is a deep link with a query, as a colleague would paste it.
const sharedLink = "/businesses/1001/payments?x=1"

// signIn fills and submits the sign-in form shown now and returns the status
// of the page it leads to.
func signIn(t *testing.T, b *Browser, user string) int {
	t.Helper()
	b.Fill("#username", user)
	b.Fill("#password", "demo")
	return b.ClickNavigate(signInButton)
}

// signOut opens the header's account menu and presses its Sign out, and
// returns the status of the page it leads to.
func signOut(b *Browser) int {
	b.t.Helper()
	b.Click(accountMenuSummary)
	return b.ClickNavigate(signOutButton)
}

func TestSignInShowsUserName(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)

	if status := b.Navigate(app.URL + "/login"); status != http.StatusOK {
		t.Fatalf("GET /login: status = %d, want 200", status)
	}
	if status := signIn(t, b, "demo"); status != http.StatusOK {
		t.Errorf("sign in: landing status = %d, want 200", status)
	}
	if got, want := b.URL(), app.URL+"/"; got != want {
		t.Fatalf("after sign-in: URL = %q, want %q", got, want)
	}
	if got := b.Text(userName); got != "demo" {
		t.Errorf("after sign-in: %s = %q, want %q", userName, got, "demo")
	}
}

func TestSharedLinkLandsAfterSignIn(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)

	b.Navigate(app.URL + sharedLink)
	wantLogin := app.URL + "/login?next=" + url.QueryEscape(sharedLink)
	if got := b.URL(); got != wantLogin {
		t.Fatalf("GET %s signed out: URL = %q, want %q", sharedLink, got, wantLogin)
	}
	b.WaitVisible(signInButton)

	// The page behind the link may not exist yet (404); only where the
	// browser ends up matters here.
	signIn(t, b, "demo")
	if got, want := b.URL(), app.URL+sharedLink; got != want {
		t.Errorf("after sign-in: URL = %q, want %q", got, want)
	}
}

func TestSignOutReturnsToSignIn(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	b.Navigate(app.URL + "/login")
	signIn(t, b, "demo")
	if got := b.Text(userName); got != "demo" {
		t.Fatalf("after sign-in: %s = %q, want %q", userName, got, "demo")
	}

	if status := signOut(b); status != http.StatusOK {
		t.Errorf("sign out: landing status = %d, want 200", status)
	}
	if got, want := b.URL(), app.URL+"/login?reason=signed-out"; got != want {
		t.Fatalf("after sign-out: URL = %q, want %q", got, want)
	}
	if got, want := b.Text(".notice"), "You are signed out."; got != want {
		t.Errorf("after sign-out: notice = %q, want %q", got, want)
	}
	if b.Exists(userName) {
		t.Errorf("after sign-out: %s still shown", userName)
	}

	// The cookie is gone, not just the page: a signed-in page sends the
	// browser back to sign in.
	b.Navigate(app.URL + "/")
	if got, want := b.URL(), app.URL+"/login"; got != want {
		t.Errorf("GET / after sign-out: URL = %q, want %q", got, want)
	}
	b.WaitVisible(signInButton)
}

func TestSignInAndHomeAreClean(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)

	b.Navigate(app.URL + "/login")
	b.WaitVisible(signInButton)
	b.NoCSPViolations(t)
	b.NoConsoleErrors(t)

	signIn(t, b, "demo")
	if got, want := b.URL(), app.URL+"/"; got != want {
		t.Fatalf("after sign-in: URL = %q, want %q", got, want)
	}
	b.WaitVisible(userName)
	b.NoCSPViolations(t)
	b.NoConsoleErrors(t)
}
