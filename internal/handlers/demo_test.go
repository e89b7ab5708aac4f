package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// TestDemoSignInHelp: in demo mode the sign-in page lists the stand-in's
// five accounts with the password, and the code form shows the code the
// stand-in sent, labelled demo only; the code it shows finishes the
// sign-in.
func TestDemoSignInHelp(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Demo: true})
	u := app.NewUser(t)
	login := u.Get("/login")
	if login.Status != http.StatusOK {
		t.Fatalf("GET /login: status = %d, want 200", login.Status)
	}
	// Each demo user's role and authority, as the demo's roles set them.
	for name, want := range map[string]string{
		"demo":      "Admin: adds and changes the team's members, and sets and decides limits up to $250,000",
		"developer": "Analyst: works accounts and sets limits up to $10,000; larger requests wait for a manager",
		"ordinary":  "Analyst: works accounts; every limit request waits for a manager",
		"trade":     "Auditor: reads everything of the team and changes nothing",
		"secure":    "Admin: adds and changes the team's members, and sets and decides limits up to $1,000,000",
	} {
		dd := login.Doc.Find(".demo-accounts dt").FilterFunction(func(_ int, s *goquery.Selection) bool { return strings.TrimSpace(s.Text()) == name }).Next()
		if got := strings.TrimSpace(dd.Find(".demo-role").Text()); !strings.HasPrefix(got, want) {
			t.Errorf("demo account %s: role = %q, want %q", name, got, want)
		}
	}
	// An auditor's refusal names the demo's roles, not a setting a demo
	// visitor never saw.
	trade := app.SignIn(t, "trade")
	refused := trade.PostForm("/businesses/1001/watch", url.Values{"_csrf": {trade.Token("/businesses/1001")}})
	if msg := refused.Text("main"); refused.Status != http.StatusForbidden || strings.Contains(msg, "TEAM_ROLES") || !strings.Contains(msg, "the demo's roles") {
		t.Errorf("an auditor's refusal in demo mode: %d, %q", refused.Status, msg)
	}
	var names []string
	login.Doc.Find(".demo-accounts dt").Each(func(_ int, s *goquery.Selection) { names = append(names, strings.TrimSpace(s.Text())) })
	if got := strings.Join(names, ","); got != "demo,ordinary,developer,trade,secure" {
		t.Errorf("demo accounts listed = %q, want demo,ordinary,developer,trade,secure", got)
	}
	text := login.Text(".demo-accounts")
	for _, want := range []string{"the password is demo", "10 requests an hour", "API-Only access", "two-factor sign-in", "2 trade providers"} {
		if !strings.Contains(text, want) {
			t.Errorf("demo accounts = %q, want it to say %q", text, want)
		}
	}

	p := u.Login("secure", "demo", "/portfolio")
	if p.Status != http.StatusSeeOther || p.Location() != "/login/verify" {
		t.Fatalf("POST /login as secure: status = %d, Location %q; want 303 to /login/verify", p.Status, p.Location())
	}
	verify := u.Get("/login/verify")
	want, ok := app.Sim.LastCode("secure")
	if !ok {
		t.Fatal("the stand-in sent no code")
	}
	if got := verify.Text("#demo-code"); got != want {
		t.Errorf("demo code shown = %q, want the stand-in's %q", got, want)
	}
	if note := verify.Text(".demo-code"); !strings.Contains(note, "Demo only") {
		t.Errorf("demo code note = %q, want it labelled Demo only", note)
	}
	tok, _ := verify.Doc.Find(`input[name="_csrf"]`).Attr("value")
	done := u.PostForm("/login/verify", url.Values{"_csrf": {tok}, "code": {verify.Text("#demo-code")}})
	if done.Status != http.StatusSeeOther || done.Location() != "/portfolio" {
		t.Errorf("POST /login/verify with the shown code: status = %d, Location %q; want 303 to /portfolio", done.Status, done.Location())
	}
}

// TestNoDemoHelpWithRealService: outside demo mode neither the accounts
// nor a code are shown, though the service (here the stand-in) has both.
func TestNoDemoHelpWithRealService(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.NewUser(t)
	if login := u.Get("/login"); login.Doc.Find(".demo-accounts").Length() != 0 || strings.Contains(login.Body, "Demo accounts") {
		t.Error("GET /login lists demo accounts outside demo mode")
	}
	u.Login("secure", "demo", "")
	verify := u.Get("/login/verify")
	if verify.Status != http.StatusOK {
		t.Fatalf("GET /login/verify: status = %d, want 200", verify.Status)
	}
	code, _ := app.Sim.LastCode("secure")
	if code == "" || strings.Contains(verify.Body, code) || verify.Doc.Find(".demo-code").Length() != 0 {
		t.Error("GET /login/verify shows the code outside demo mode")
	}
}
