package apply_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"creditdash/internal/applications"
	"creditdash/internal/apptest"
	"creditdash/internal/store"
	"creditdash/internal/store/storetest"
)

// submittedWithMail is a dashboard mailing a real SMTP server on loopback
// with an application submitted through its link (two trade references
// and a bank), and the application as the team's store keeps it.
func submittedWithMail(t *testing.T, opts apptest.Options) (*apptest.App, *apptest.Mailbox, store.Application) {
	t.Helper()
	mb := apptest.StartMailbox(t, "", "")
	opts.SMTPURL = mb.URL
	app := apptest.Start(t, opts)
	demo := app.SignIn(t, "demo")
	path := apptest.Invite(t, demo, "Northwind Traders", "buyer@northwind.test", "40,000")
	u := app.NewUser(t)
	_, hidden := apptest.ApplyForm(t, u, path)
	sent := u.PostMultipart(path, apptest.Merge(hidden, apptest.Answers("Northwind Traders", "ann@northwind.test"), url.Values{"action": {"submit"}}), "", "", nil)
	if sent.Status != http.StatusSeeOther {
		t.Fatalf("submit: status = %d; %.400s", sent.Status, sent.Text("main"))
	}
	a := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	list, err := app.Store.Applications(t.Context(), a)
	if err != nil || len(list) != 1 {
		t.Fatalf("applications kept: %d, %v", len(list), err)
	}
	full, err := app.Store.TeamApplication(t.Context(), a, list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	return app, mb, full
}

// reminders are the reminders received for the reference at addr.
func reminders(mb *apptest.Mailbox, addr string) int {
	n := 0
	for _, m := range mb.Received() {
		if m.To == addr && strings.HasPrefix(m.Header.Get("Subject"), "Reminder: ") {
			n++
		}
	}
	return n
}

// TestReferenceAnsweredOnceAndReminded: each reference named is mailed its
// one-time link; one answers through it (a wrong answer first: 422 with
// what was typed kept), and the link then refuses a second use, its
// first answer standing; the team's page shows the answer. The job queue
// is driven to completion: the unanswered references get every reminder
// (each mail's one link), the answered one none after its answer. On
// both engines (PostgreSQL under scripts/test-postgres.sh).
func TestReferenceAnsweredOnceAndReminded(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { referenceAnsweredOnceAndReminded(t, apptest.Options{}) })
	t.Run("postgres", func(t *testing.T) {
		referenceAnsweredOnceAndReminded(t, apptest.Options{DatabaseURL: storetest.Database(t)})
	})
}

func referenceAnsweredOnceAndReminded(t *testing.T, opts apptest.Options) {
	const every, most = 150 * time.Millisecond, 2
	opts.Applications = applications.Settings{RemindEvery: every, MaxReminders: most}
	app, mb, a := submittedWithMail(t, opts)
	if len(a.References) != 3 {
		t.Fatalf("references kept: %d, want 3 (two trade, one bank)", len(a.References))
	}
	ask := mb.Wait(t, "asking the first trade reference", func(m apptest.Mail) bool {
		return m.To == "sam@harbourpaper.test" && !strings.HasPrefix(m.Header.Get("Subject"), "Reminder")
	})
	if subj := ask.Header.Get("Subject"); subj != "Trade reference for Northwind Traders" {
		t.Errorf("the ask's subject = %q", subj)
	}
	path := apptest.LinkIn(t, ask, "/reference/")
	ref := app.NewUser(t)
	form := ref.Get(path)
	if form.Status != http.StatusOK || !strings.Contains(form.Text("h1"), "Northwind Traders") {
		t.Fatalf("GET the reference's link: status = %d, %q", form.Status, form.Text("h1"))
	}
	_, hidden, _ := form.Form("form.apply-form")
	wrong := ref.PostForm(path, apptest.Merge(hidden, url.Values{"years": {"four"}, "high_credit": {"18,000"}, "days_beyond": {"5"}, "again": {"yes"}}))
	if wrong.Status != http.StatusUnprocessableEntity || wrong.Text("#years-error") == "" {
		t.Fatalf("years as a word: status = %d, error %q", wrong.Status, wrong.Text("#years-error"))
	}
	if v, _ := wrong.Doc.Find("#high_credit").Attr("value"); v != "18,000" {
		t.Errorf("the refused answer lost the high credit typed: %q", v)
	}
	_, hidden, _ = wrong.Form("form.apply-form")
	answer := url.Values{"years": {"4"}, "high_credit": {"18,000"}, "days_beyond": {"5"}, "again": {"yes"}}
	done := ref.PostForm(path, apptest.Merge(hidden, answer))
	if done.Status != http.StatusOK || !strings.Contains(done.Text("#apply-notice"), "does not work again") {
		t.Fatalf("the answer: status = %d, %q", done.Status, done.Text("main"))
	}
	sentBefore := len(mb.Received())

	// A second use of the link, as the same browser or another: refused,
	// the first answer stands.
	again := ref.PostForm(path, apptest.Merge(hidden, url.Values{"years": {"30"}, "high_credit": {"900,000"}, "days_beyond": {"0"}, "again": {"yes"}}))
	if again.Doc.Find("form.apply-form").Length() != 0 || !strings.Contains(again.Text("#apply-notice"), "does not work again") {
		t.Fatalf("a second answer: status = %d, %q", again.Status, again.Text("main"))
	}
	if other := app.NewUser(t).Get(path); other.Doc.Find("form.apply-form").Length() != 0 {
		t.Fatalf("the used link still offers its form to another browser")
	}

	app.WaitJobs(t, "application_reference")
	for _, addr := range []string{"pat@solentfreight.test", "bo@firstcoastal.test"} {
		if n := reminders(mb, addr); n != most {
			t.Errorf("%s got %d reminders, want %d", addr, n, most)
		}
	}
	for _, m := range mb.Received()[sentBefore:] {
		if m.To == "sam@harbourpaper.test" {
			t.Errorf("the answered reference was mailed after its answer: %q", m.Header.Get("Subject"))
		}
	}
	for _, m := range mb.Received() {
		if strings.HasPrefix(m.Header.Get("Subject"), "Reminder: ") && strings.Count(m.Text, "/reference/") != 1 {
			t.Errorf("a reminder to %s without its one link:\n%s", m.To, m.Text)
		}
	}

	demo := app.SignIn(t, "demo")
	page := demo.Get("/applications/" + itoa(a.ID))
	refs := page.Text("#references")
	for _, want := range []string{"Harbour Paper Ltd", "answered", "18,000", "Bo Banker", "reminded 2 times"} {
		if !strings.Contains(refs, want) {
			t.Errorf("the application's references lack %q: %q", want, refs)
		}
	}
	if strings.Contains(refs, "900,000") {
		t.Errorf("the second answer replaced the first: %q", refs)
	}
}
