package browsertest

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"creditdash/internal/apptest"
)

// TestApplicationInvitationToOutcome is issue 44's flow in Chromium, with
// a real SMTP server on loopback: demo invites a company; the applicant
// opens the mail's link, fills the form with a PDF and sends it; a trade
// reference answers through its mail's link; demo finds the business,
// approves a limit, and the applicant is mailed the outcome; the credit
// memo prints the reference's answers.
func TestApplicationInvitationToOutcome(t *testing.T) {
	mb := apptest.StartMailbox(t, "", "")
	app := apptest.Start(t, apptest.Options{SMTPURL: mb.URL})
	b := Start(t)
	openSignedIn(t, app, b, "/applications")
	name := apptest.DemoData().Businesses[0].Name
	b.Fill("#company", name)
	b.Fill("#email", "buyer@northwind.test")
	if status := b.ClickNavigate(".invite-form button[type=submit]"); status != http.StatusOK {
		t.Fatalf("invite: status %d", status)
	}
	invite := mb.Wait(t, "the invitation", func(m apptest.Mail) bool { return m.To == "buyer@northwind.test" })

	b.Navigate(app.URL + apptest.LinkIn(t, invite, "/apply/"))
	for field, v := range apptest.Answers(name, "ann@northwind.test") {
		if field != "terms" && field != "consent" {
			b.Fill("#"+field, v[0])
		}
	}
	b.step("choose the terms", chromedp.SetValue(chromedp.CSS("#terms"), "Net 30"))
	b.Click("#consent")
	pdf := filepath.Join(t.TempDir(), "accounts 2025.pdf")
	if err := os.WriteFile(pdf, apptest.PDF, 0o600); err != nil {
		t.Fatal(err)
	}
	b.step("choose the PDF", chromedp.SetUploadFiles(chromedp.CSS("#document"), []string{pdf}))
	if status := b.ClickNavigate(`button[name=action][value=submit]`); status != http.StatusOK || !strings.Contains(b.Text("#apply-notice"), "received") {
		t.Fatalf("submit: status %d, %q", status, b.Text("main"))
	}

	ask := mb.Wait(t, "the trade reference's ask", func(m apptest.Mail) bool { return m.To == "sam@harbourpaper.test" })
	b.Navigate(app.URL + apptest.LinkIn(t, ask, "/reference/"))
	b.Fill("#years", "6")
	b.Fill("#high_credit", "18,000")
	b.Fill("#days_beyond", "4")
	b.Click(`input[name=again][value=yes]`)
	if status := b.ClickNavigate(".apply-form button[type=submit]"); status != http.StatusOK || !strings.Contains(b.Text("#apply-notice"), "does not work again") {
		t.Fatalf("the reference's answer: status %d, %q", status, b.Text("main"))
	}

	b.Navigate(app.URL + "/applications")
	b.ClickNavigate("#waiting a")
	b.ClickNavigate(`#match a[href$="find=1#match"]`)
	b.ClickNavigate("#candidates form button")
	b.Fill("#amount", "30,000")
	b.Fill("#note", "Good references, 14 years trading")
	if status := b.ClickNavigate(".decide-form button[type=submit]"); status != http.StatusOK || !strings.Contains(b.Text("#status"), "approved") {
		t.Fatalf("approve: status %d, %q", status, b.Text("#status"))
	}
	told := mb.Wait(t, "the outcome", func(m apptest.Mail) bool { return m.To == "ann@northwind.test" })
	if !strings.Contains(told.Text, "approved, with a credit limit of 30,000") {
		t.Errorf("the outcome mail:\n%s", told.Text)
	}

	b.ClickNavigate("#application-memo")
	emulateMedia(b, "print")
	if n := Eval[int](b, `document.getElementById('memo-references').getClientRects().length`); n == 0 {
		t.Error("the memo's references do not print")
	}
	if refs := b.Text("#memo-references"); !strings.Contains(refs, "18,000") || !strings.Contains(b.Text("#memo-documents"), "accounts 2025.pdf") {
		t.Errorf("the printed memo's references %q, documents %q", refs, b.Text("#memo-documents"))
	}
	emulateMedia(b, "")
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
