package apply_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/applications"
	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// oneRecipient fails unless m's header is one line per field with no
// recipient but its own: a line break typed into a name or an address
// never starts a header of its own.
func oneRecipient(t *testing.T, m apptest.Mail, victim string) {
	t.Helper()
	head, _, _ := strings.Cut(m.Raw, "\r\n\r\n")
	for _, line := range strings.Split(head, "\r\n") {
		name, _, _ := strings.Cut(line, ":")
		if l := strings.ToLower(name); l == "bcc" || l == "cc" {
			t.Errorf("the mail to %s has a %s header: %q", m.To, name, line)
		}
	}
	if strings.Contains(m.Header.Get("To"), victim) || m.To == victim {
		t.Errorf("the mail to %s reaches %s", m.To, victim)
	}
	if strings.ContainsAny(m.Header.Get("Subject"), "\r\n") {
		t.Errorf("a subject of more than one line: %q", m.Header.Get("Subject"))
	}
}

// TestNoHeaderInjection: line breaks typed into a company's name (the
// invitation's subject), an applicant's legal name (the references'
// subjects) or a contact's name never add a header or a recipient to a
// mail; an e-mail address with one is refused with 422, what was typed
// kept to correct.
func TestNoHeaderInjection(t *testing.T) {
	const victim = "victim@evil.test"
	mb := apptest.StartMailbox(t, "", "")
	app := apptest.Start(t, apptest.Options{SMTPURL: mb.URL})
	demo := app.SignIn(t, "demo")
	tok := demo.Token("/applications")
	bad := demo.PostForm("/applications", url.Values{"_csrf": {tok}, "company": {"Evil"}, "email": {"buyer@evil.test\r\nBcc: " + victim}})
	if bad.Status != http.StatusUnprocessableEntity || bad.Text("#email-error") == "" {
		t.Fatalf("an invitation's address with a header in it: status = %d, %q", bad.Status, bad.Text("#email-error"))
	}
	path := apptest.Invite(t, demo, "Evil Ltd\r\nBcc: "+victim+"\r\n\r\nHi", "buyer@evil.test", "")
	invite := mb.Wait(t, "the invitation", func(m apptest.Mail) bool { return m.To == "buyer@evil.test" })
	oneRecipient(t, invite, victim)
	if subj := invite.Header.Get("Subject"); subj != "Your credit application: Evil Ltd Bcc: "+victim+" Hi" {
		t.Errorf("the invitation's subject = %q, want the name on one line", subj)
	}

	u := app.NewUser(t)
	_, hidden := apptest.ApplyForm(t, u, path)
	answers := apptest.Merge(hidden, apptest.Answers("Evil Ltd", "ann@evil.test"), url.Values{
		"legal_name":   {"Evil Ltd\r\nBcc: " + victim},
		"contact_name": {"Ann\nCc: " + victim},
		"trade1_email": {"sam@harbourpaper.test\r\nBcc: " + victim},
		"action":       {"submit"},
	})
	refused := u.PostMultipart(path, answers, "", "", nil)
	if refused.Status != http.StatusUnprocessableEntity || !strings.Contains(refused.Text("#trade1_email-error"), "not an e-mail address") {
		t.Fatalf("a reference's address with a header in it: status = %d, %q", refused.Status, refused.Text("#trade1_email-error"))
	}
	if v, _ := refused.Doc.Find("#trade1_email").Attr("value"); !strings.HasPrefix(v, "sam@harbourpaper.test") || !strings.Contains(v, victim) {
		t.Errorf("the refused address is not kept to correct: %q", v)
	}
	_, hidden = apptest.ApplyForm(t, u, path)
	answers = apptest.Merge(answers, hidden, url.Values{"trade1_email": {"sam@harbourpaper.test"}})
	if sent := u.PostMultipart(path, answers, "", "", nil); sent.Status != http.StatusSeeOther {
		t.Fatalf("submit: status = %d; %.300s", sent.Status, sent.Text("main"))
	}
	for _, addr := range []string{"sam@harbourpaper.test", "pat@solentfreight.test", "bo@firstcoastal.test"} {
		ask := mb.Wait(t, "the reference's ask", func(m apptest.Mail) bool { return m.To == addr })
		oneRecipient(t, ask, victim)
		if subj := ask.Header.Get("Subject"); subj != "Trade reference for Evil Ltd Bcc: "+victim {
			t.Errorf("the reference's subject = %q", subj)
		}
	}
	// Every mail due now has arrived (the reminders are days away).
	for _, m := range mb.Received() {
		if m.To == victim {
			t.Errorf("a mail reached %s: %q", victim, m.Header.Get("Subject"))
		}
	}
}

// TestDraftBounds: a field past its bound is refused with 422 saying how
// long it may be, the typed text kept; a draft saved as often as a link
// may is refused one more save with 422 saying so, what was typed shown,
// and can still be submitted.
func TestDraftBounds(t *testing.T) {
	app, u, path := started(t, applications.Settings{})
	_, hidden := apptest.ApplyForm(t, u, path)
	long := strings.Repeat("Northwind ", 21) // 210 characters
	p := u.PostMultipart(path, apptest.Merge(hidden, url.Values{"legal_name": {long}, "address": {"12 Harbour Road"}, "action": {"save"}}), "", "", nil)
	if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text("#legal_name-error"), "Keep this to 200 characters (it has 209)") {
		t.Fatalf("a legal name of 210 characters: status = %d, %q", p.Status, p.Text("#legal_name-error"))
	}
	if v, _ := p.Doc.Find("#legal_name").Attr("value"); v != strings.TrimSpace(long) {
		t.Errorf("the long name typed is not kept: %q", v)
	}
	if v, _ := p.Doc.Find("#address").Attr("value"); v != "12 Harbour Road" {
		t.Errorf("the address typed is not kept: %q", v)
	}

	demo := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	list, err := app.Store.Applications(t.Context(), demo)
	if err != nil || len(list) != 1 {
		t.Fatalf("applications: %d, %v", len(list), err)
	}
	a, err := app.Store.TeamApplication(t.Context(), demo, list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	// The saves before the last one go straight to the store: the router
	// is what is tested, at the bound.
	for range store.MaxApplicationSaves - 1 {
		if _, err := app.Store.SaveAnswers(t.Context(), a.ID, a.Nonce, `{"legal_name":"Northwind"}`); err != nil {
			t.Fatal(err)
		}
	}
	_, hidden = apptest.ApplyForm(t, u, path)
	draft := url.Values{"legal_name": {"Northwind Traders"}, "address": {"12 Harbour Road"}, "action": {"save"}}
	if last := u.PostMultipart(path, apptest.Merge(hidden, draft), "", "", nil); last.Status != http.StatusSeeOther {
		t.Fatalf("the last save a link may make: status = %d; %.300s", last.Status, last.Text("main"))
	}
	_, hidden = apptest.ApplyForm(t, u, path)
	over := u.PostMultipart(path, apptest.Merge(hidden, draft, url.Values{"address": {"14 Harbour Road"}}), "", "", nil)
	if over.Status != http.StatusUnprocessableEntity || !strings.Contains(over.Text("#form-error"), "cannot be saved again") {
		t.Fatalf("a save past the bound: status = %d, %q", over.Status, over.Text("#form-error"))
	}
	if v, _ := over.Doc.Find("#address").Attr("value"); v != "14 Harbour Road" {
		t.Errorf("the refused save lost the address typed: %q", v)
	}
	sent := u.PostMultipart(path, apptest.Merge(hidden, apptest.Answers("Northwind Traders", "ann@northwind.test"), url.Values{"action": {"submit"}}), "", "", nil)
	if sent.Status != http.StatusSeeOther {
		t.Fatalf("submit once the saves are spent: status = %d; %.300s", sent.Status, sent.Text("main"))
	}
	if got, _ := app.Store.TeamApplication(t.Context(), demo, a.ID); got.Status != store.AppSubmitted || applications.Parse(got.Answers).Address != "12 Harbour Road, Portsmouth PO1 3AX" {
		t.Fatalf("after the submit: status %s, answers %s", got.Status, got.Answers)
	}
}
