package handlers_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream/simulator"
)

// linkIn finds the public link to path (with its token) in a mail's text.
func linkIn(t *testing.T, m apptest.Mail, path string) string {
	t.Helper()
	re := regexp.MustCompile(regexp.QuoteMeta(apptest.PublicURL+path) + `\?t=[A-Za-z0-9_.%-]+`)
	l := re.FindString(m.Text)
	if l == "" {
		t.Fatalf("no %s link in the mail:\n%s", path, m.Text)
	}
	if !strings.Contains(m.HTML, l) {
		t.Fatalf("the HTML part lacks the link %s", l)
	}
	return strings.TrimPrefix(l, apptest.PublicURL)
}

// followLink opens a mail's link in a browser that is not signed in and
// presses its button.
func followLink(t *testing.T, app *apptest.App, path, want string) {
	t.Helper()
	anon := app.NewUser(t)
	p := anon.Get(path)
	if p.Status != http.StatusOK {
		t.Fatalf("GET %s: status = %d, want 200", path, p.Status)
	}
	done := anon.Submit(p, "main form")
	if done.Status != http.StatusOK || !strings.Contains(done.Text("#digest-link-done"), want) {
		t.Fatalf("POST %s: status = %d, done %q, want %q", path, done.Status, done.Text("#digest-link-done"), want)
	}
}

// subscribe saves an address and frequency and verifies it by its mail.
func subscribe(t *testing.T, app *apptest.App, mb *apptest.Mailbox, u *wsUser, email, freq string) {
	t.Helper()
	if to := mustRedirect(t, "save digest", u.post("/settings/digest", "email", email, "frequency", freq)); to != "/settings/digest?done=verify" {
		t.Fatalf("save digest: redirect to %q", to)
	}
	defer func() {
		if t.Failed() {
			t.Log(app.Logs.String())
		}
	}()
	m := mb.Wait(t, "verification to "+email, func(m apptest.Mail) bool {
		return m.To == email && strings.Contains(m.Header.Get("Subject"), "Confirm")
	})
	followLink(t, app, linkIn(t, m, "/digest/verify"), "Address verified")
}

func isDigest(to string) func(apptest.Mail) bool {
	return func(m apptest.Mail) bool {
		return m.To == to && strings.HasPrefix(m.Header.Get("Subject"), "CreditDash digest")
	}
}

// The whole path through a real SMTP server that asks for a password:
// bad addresses are 422 with the input kept, the verification link works
// without signing in, a second one within the minute is 429, a digest
// sent now has both parts, PUBLIC_URL links and no secret, the scheduler
// sends the daily one, and the unsubscribe link stops it.
func TestDigestVerifySendUnsubscribe(t *testing.T) {
	const smtpPassword = "smtp-pass-7f3a9"
	mb := apptest.StartMailbox(t, "mailer", smtpPassword)
	app := apptest.Start(t, apptest.Options{SMTPURL: mb.URL, SMTPRoots: mb.Roots})
	u := signInWS(t, app, "demo")

	if p := u.Get("/settings/digest"); p.Status != http.StatusOK || p.Doc.Find(`form[action="/settings/digest"]`).Length() != 1 {
		t.Fatalf("GET /settings/digest: status = %d", p.Status)
	}
	for _, c := range []struct{ email, freq, field string }{
		{"not an address", "daily", "email"},
		{"Boss <boss@example.com>", "daily", "email"},
		{strings.Repeat("a", 250) + "@x.io", "daily", "email"},
		{"", "daily", "email"},
		{"boss@example.com", "hourly", "frequency"},
	} {
		p := u.post("/settings/digest", "email", c.email, "frequency", c.freq)
		if p.Status != http.StatusUnprocessableEntity {
			t.Fatalf("POST %q %q: status = %d, want 422", c.email, c.freq, p.Status)
		}
		if v, _ := p.Doc.Find("#digest-email").Attr("value"); v != strings.TrimSpace(c.email) {
			t.Fatalf("POST %q: the address was not kept: %q", c.email, v)
		}
		if p.Doc.Find(".form-error[role=alert]").Length() == 0 {
			t.Fatalf("POST %q %q: no message", c.email, c.freq)
		}
	}

	subscribe(t, app, mb, u, "boss@example.com", "off")
	if p := u.post("/settings/digest/verify"); p.Status != http.StatusTooManyRequests && p.Status != http.StatusConflict {
		t.Fatalf("verification again at once: status = %d, want 429 (or 409 once verified)", p.Status)
	}
	if s := u.Get("/settings/digest").Text("#digest-status"); !strings.Contains(s, "verified") {
		t.Fatalf("status after verifying: %q", s)
	}

	minute := time.Now().UTC().Truncate(time.Minute)
	if to := mustRedirect(t, "send now", u.post("/settings/digest/send")); to != "/settings/digest?done=queued" {
		t.Fatalf("send now: redirect to %q", to)
	}
	again := mustRedirect(t, "send again", u.post("/settings/digest/send"))
	if time.Now().UTC().Truncate(time.Minute).Equal(minute) && again != "/settings/digest?done=already" {
		t.Fatalf("a second send within the minute: redirect to %q", again)
	}
	m := mb.Wait(t, "digest", isDigest("boss@example.com"))
	for _, want := range []string{"Alerts raised", "Decisions waiting for you", "Accounts", apptest.PublicURL + "/digest/preview"} {
		if !strings.Contains(m.Text, want) {
			t.Fatalf("text part lacks %q:\n%s", want, m.Text)
		}
	}
	if !strings.Contains(m.HTML, "<h2>Alerts raised on your customers</h2>") {
		t.Fatalf("HTML part:\n%s", m.HTML)
	}
	if m.Header.Get("Message-Id") == "" || m.Header.Get("Date") == "" || !strings.Contains(m.Header.Get("List-Unsubscribe"), apptest.PublicURL) {
		t.Fatalf("headers: %v", m.Header)
	}
	key := u.SessionKey()
	for _, c := range u.Cookies() {
		if strings.Contains(m.Raw, c.Value) {
			t.Fatalf("the mail carries the cookie %s", c.Name)
		}
	}
	for _, secret := range []string{smtpPassword, simulator.DemoPassword, key, apptest.TestSecret} {
		if strings.Contains(m.Raw, secret) {
			t.Fatalf("the mail carries a secret %q", secret)
		}
	}
	waitFor(t, "settings to say the digest was sent", func() bool {
		return strings.Contains(u.Get("/settings/digest").Text("#digest-last-sent"), "Last digest sent")
	})

	// Daily: the scheduler sends today's, once.
	before := len(mb.Received())
	mustRedirect(t, "daily", u.post("/settings/digest", "email", "boss@example.com", "frequency", "daily"))
	mb.Wait(t, "daily digest", func(m apptest.Mail) bool {
		return isDigest("boss@example.com")(m) && len(mb.Received()) > before
	})

	unsub := linkIn(t, m, "/digest/unsubscribe")
	if p := app.NewUser(t).Get(strings.Replace(unsub, "t=", "t=x", 1)); p.Status != http.StatusBadRequest {
		t.Fatalf("altered unsubscribe link: status = %d, want 400", p.Status)
	}
	followLink(t, app, unsub, "Unsubscribed")
	if v, _ := u.Get("/settings/digest").Doc.Find("#digest-frequency option[selected]").Attr("value"); v != "off" {
		t.Fatalf("frequency after unsubscribing: %q", v)
	}
}

// A send the server refuses is shown in settings and retried with
// backoff until it goes through.
func TestDigestFailedSendRetried(t *testing.T) {
	mb := apptest.StartMailbox(t, "", "")
	app := apptest.Start(t, apptest.Options{SMTPURL: mb.URL})
	u := signInWS(t, app, "demo")
	subscribe(t, app, mb, u, "ops@example.com", "off")
	mb.FailNext(1)
	mustRedirect(t, "send now", u.post("/settings/digest/send"))
	waitFor(t, "settings to show the refused send", func() bool {
		return strings.Contains(u.Get("/settings/digest").Text("#digest-failure"), "451")
	})
	mb.Wait(t, "digest after the retry", isDigest("ops@example.com"))
	waitFor(t, "settings to show the send, without the failure", func() bool {
		p := u.Get("/settings/digest")
		return p.Doc.Find("#digest-failure").Length() == 0 && strings.Contains(p.Text("#digest-last-sent"), "Last digest sent")
	})
}

// waitFor waits, up to 30 seconds, for ok.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Demo mode without SMTP_URL writes mails into DATA_DIR/outbox and lists
// them; without either, settings say e-mail is not configured and
// sending is refused.
func TestDigestOutboxAndNotConfigured(t *testing.T) {
	dir := t.TempDir()
	app := apptest.Start(t, apptest.Options{Outbox: true, DataDir: dir})
	u := signInWS(t, app, "demo")
	mustRedirect(t, "save", u.post("/settings/digest", "email", "demo@example.com", "frequency", "weekly"))
	waitFor(t, "the verification mail in the outbox's list", func() bool {
		return u.Get("/settings/digest").Doc.Find("#digest-outbox li").Length() == 1
	})
	files, _ := filepath.Glob(filepath.Join(dir, "outbox", "*.eml"))
	if len(files) != 1 {
		t.Fatalf("outbox files: %v", files)
	}
	b, _ := os.ReadFile(files[0])
	if !strings.Contains(string(b), "/digest/verify?t=") || !strings.Contains(string(b), "multipart/alternative") {
		t.Fatalf("outbox mail:\n%s", b)
	}

	plain := apptest.Start(t, apptest.Options{})
	v := signInWS(t, plain, "demo")
	if p := v.Get("/settings/digest"); p.Doc.Find("#digest-not-configured").Length() != 1 {
		t.Fatal("no word that e-mail is not configured")
	}
	mustRedirect(t, "save", v.post("/settings/digest", "email", "demo@example.com", "frequency", "daily"))
	if p := v.post("/settings/digest/send"); p.Status != http.StatusConflict {
		t.Fatalf("send without e-mail: status = %d, want 409", p.Status)
	}
}

// The preview shows every section of the next digest and its size, with
// the same change in expected loss as the exposure page's bridge; the
// mail's links work without signing in only with a valid token.
func TestDigestPreview(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInAccounts(t, app, "demo")
	importSample(t, u, "demo-ledger-3-months-earlier.csv")
	importSample(t, u, "demo-ledger-current.csv")
	mustRedirect(t, "link", u.post("/accounts/link"))
	for range 2 { // 90 businesses, 50 a click
		mustRedirect(t, "fetch", u.post("/accounts/scores"))
	}
	// Issue 48: with scores known, accounts.csv writes PD plainly, at
	// most six decimals (it wrote 0.0070999999999999995).
	pds := 0
	for _, line := range strings.Split(strings.TrimSpace(u.Get("/accounts.csv").Body), "\n")[1:] {
		f := strings.Split(line, ",")
		if len(f) < 18 || f[len(f)-5] == "" {
			continue
		}
		pds++
		if pd := f[len(f)-5]; !regexp.MustCompile(`^[01](\.[0-9]{1,6})?$`).MatchString(pd) {
			t.Errorf("accounts.csv pd %q: want a plain decimal with at most six places (%s)", pd, line)
		}
	}
	if pds == 0 {
		t.Error("accounts.csv has no PD once scores are known")
	}
	change := u.Get("/portfolio/exposure").Text("table.bridge tr:last-child td")
	fetches := fmt.Sprint(app.Sim.Requests())
	p := u.Get("/digest/preview")
	if fmt.Sprint(app.Sim.Requests()) != fetches {
		t.Fatal("the preview asked the service")
	}
	if change == "" || !strings.Contains(p.Text("#digest-preview"), ": "+change) {
		t.Fatalf("preview's change in expected loss, want %q: %s", change, p.Text("#digest-preview"))
	}
	for _, want := range []string{"Change in expected loss", "Bridge: risk migration", "Reviews overdue", "Reviews due this week", "Accounts newly over limit", "Accounts newly at risk"} {
		if !strings.Contains(p.Text("#digest-preview"), want) {
			t.Fatalf("preview lacks %q", want)
		}
	}
	if p.Status != http.StatusOK {
		t.Fatalf("GET /digest/preview: status = %d", p.Status)
	}
	for _, want := range []string{"Alerts raised", "Decisions waiting for you", "lines, at most 200"} {
		if !strings.Contains(p.Text("main"), want) {
			t.Fatalf("preview lacks %q: %s", want, p.Text("main"))
		}
	}
	if p := app.NewUser(t).Get("/digest/preview"); p.Status == http.StatusOK && strings.Contains(p.Text("main"), "Alerts raised") {
		t.Fatal("the preview is shown without signing in")
	}
	for _, path := range []string{"/digest/verify?t=abc.def", "/digest/unsubscribe", "/digest/unsubscribe?t=" + strings.Repeat("a", 5000)} {
		if p := app.NewUser(t).Get(path); p.Status != http.StatusBadRequest {
			t.Fatalf("GET %s: status = %d, want 400", path, p.Status)
		}
	}
}

// An unsubscribe link is bound to the address it was sent to: once the
// digest goes to a new address, a link from a mail to the old one turns
// nothing off (400, saying why), and the new address's own link does.
func TestDigestUnsubscribeLinkBoundToItsAddress(t *testing.T) {
	mb := apptest.StartMailbox(t, "", "")
	// A verification mail and a send-now go once a minute: the clock moves
	// on by one before the second of each.
	var ahead atomic.Int64
	app := apptest.Start(t, apptest.Options{SMTPURL: mb.URL, Now: func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }})
	u := signInWS(t, app, "demo")
	subscribe(t, app, mb, u, "old@example.com", "weekly")
	mustRedirect(t, "send now", u.post("/settings/digest/send"))
	oldLink := linkIn(t, mb.Wait(t, "digest to the old address", isDigest("old@example.com")), "/digest/unsubscribe")

	ahead.Store(int64(2 * time.Minute))
	subscribe(t, app, mb, u, "new@example.com", "weekly")
	anon := app.NewUser(t)
	done := anon.Submit(anon.Get(oldLink), "main form")
	if done.Status != http.StatusBadRequest || !strings.Contains(done.Text("main"), "earlier address") {
		t.Errorf("the old address's link: status = %d, %q; want 400 naming the earlier address", done.Status, done.Text("main"))
	}
	if v, _ := u.Get("/settings/digest").Doc.Find("#digest-frequency option[selected]").Attr("value"); v != "weekly" {
		t.Fatalf("the old address's link turned the new one's digest to %q", v)
	}

	if to := mustRedirect(t, "send now", u.post("/settings/digest/send")); to != "/settings/digest?done=queued" {
		t.Fatalf("send now to the new address: redirect to %q", to)
	}
	newLink := linkIn(t, mb.Wait(t, "digest to the new address", isDigest("new@example.com")), "/digest/unsubscribe")
	followLink(t, app, newLink, "Unsubscribed")
	if v, _ := u.Get("/settings/digest").Doc.Find("#digest-frequency option[selected]").Attr("value"); v != "off" {
		t.Fatalf("frequency after the new address's link: %q", v)
	}
}
