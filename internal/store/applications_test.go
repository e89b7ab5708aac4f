package store

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// submitted invites, drafts, adds a PDF and submits an application of
// alice's team with two references, and returns it.
func submitted(t *testing.T, s *Store, company string) Application {
	t.Helper()
	amount := 40000.0
	app, err := s.Invite(t.Context(), alice, Invitation{Company: company, Email: "buyer@example.test", Requested: &amount})
	must(t, err)
	if app.Number == 0 || app.Status != AppInvited {
		t.Fatalf("invited: %+v", app)
	}
	_, err = s.SaveAnswers(t.Context(), app.ID, app.Nonce, `{"legal_name":"`+company+`"}`)
	must(t, err)
	_, err = s.AddDocument(t.Context(), app.ID, app.Nonce, Document{Name: "accounts.pdf", Type: "application/pdf", SHA256: "ab", Data: []byte("%PDF-1.4 x")})
	must(t, err)
	app, err = s.SubmitApplication(t.Context(), app.ID, app.Nonce, Submission{Answers: `{"legal_name":"` + company + `"}`,
		Company: company, Email: "buyer@example.test", From: "192.0.2.7", SignedSHA256: strings.Repeat("c", 64), Signer: "Ann Buyer, CFO",
		References: []ReferenceSpec{{Kind: "trade", Name: "Supplier One", Contact: "Sam", Email: "sam@supplier.test"},
			{Kind: "bank", Name: "First Bank", Contact: "Bo", Email: "bo@bank.test"}}})
	must(t, err)
	return app
}

// TestApplicationFromInvitationToAccount: submitted, it no longer
// changes; matched and approved within authority it creates the account
// with its limit; above authority it waits and a second manager's
// approval settles it; every step is in the audit trail, the signature's
// hash included.
func TestApplicationFromInvitationToAccount(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		_, err := s.AddWebhook(t.Context(), alice, "https://erp.example.com/hooks", []string{EventApplicationSubmitted, EventApplicationDecided}, "whsec_c2VjcmV0")
		must(t, err)
		app := submitted(t, s, "Northwind Traders")
		if app.Status != AppSubmitted || len(app.Documents) != 1 || len(app.References) != 2 {
			t.Fatalf("submitted: status %s, %d documents, %d references", app.Status, len(app.Documents), len(app.References))
		}
		_, err = s.SaveAnswers(t.Context(), app.ID, app.Nonce, `{}`)
		wantErr(t, "save after submit", err, ErrApplicationClosed)
		if _, err := s.LinkApplication(t.Context(), app.ID, strings.Repeat("0", 32)); !errors.Is(err, ErrNotFound) {
			t.Fatalf("wrong nonce: err = %v, want not found", err)
		}
		_, _, err = s.DecideApplication(t.Context(), alice, app.ID, AppDecision{Approve: true, Amount: 5000, Note: "fine", Authority: 1e6})
		wantInvalid(t, "approve unmatched", err, "business")
		_, err = s.MatchApplication(t.Context(), alice, app.ID, 1001, "name search")
		must(t, err)
		got, r, err := s.DecideApplication(t.Context(), alice, app.ID, AppDecision{Approve: true, Amount: 5000, Note: "fine", Authority: 10000})
		must(t, err)
		if got.Status != AppApproved || r.Status != StatusApproved || got.Account != ApplicationAccount(app.Number) {
			t.Fatalf("approved within authority: app %s, request %s, account %s", got.Status, r.Status, got.Account)
		}
		if l := limitOf(t, s, got.Account); l != 5000 {
			t.Fatalf("limit = %v, want 5000", l)
		}
		_, _, err = s.DecideApplication(t.Context(), bob, app.ID, AppDecision{Note: "no"})
		wantInvalid(t, "decide twice", err, "status")

		big := submitted(t, s, "Contoso Wholesale")
		_, err = s.MatchApplication(t.Context(), alice, big.ID, 1002, "identifier")
		must(t, err)
		got, r, err = s.DecideApplication(t.Context(), alice, big.ID, AppDecision{Approve: true, Account: "C-77", Amount: 90000, Note: "good payer", Authority: 10000})
		must(t, err)
		if got.Status != AppWaiting || r.Status != StatusPending {
			t.Fatalf("above authority: app %s, request %s", got.Status, r.Status)
		}
		_, err = s.Decide(t.Context(), bob, r.ID, Approve, "agreed")
		must(t, err)
		got, err = s.TeamApplication(t.Context(), alice, big.ID)
		must(t, err)
		if got.Status != AppApproved || got.DecidedBy != "bob" || got.DecidedAmount == nil || *got.DecidedAmount != 90000 {
			t.Fatalf("settled: %+v", got)
		}
		events := map[string]int{}
		rows, err := s.r.QueryContext(t.Context(), "SELECT type FROM webhook_events WHERE service = $1", alice.Service)
		must(t, err)
		for rows.Next() {
			var typ string
			must(t, rows.Scan(&typ))
			events[typ]++
		}
		must(t, rows.Close())
		// Two submitted; decided: the first at once, the second when its
		// request was approved (not while it waited).
		if events[EventApplicationSubmitted] != 2 || events[EventApplicationDecided] != 2 {
			t.Fatalf("events in the outbox: %v", events)
		}
		tell, err := s.ApplicationsToTell(t.Context(), 10)
		must(t, err)
		if len(tell) != 2 {
			t.Fatalf("to tell: %d, want 2", len(tell))
		}
		must(t, s.ToldApplicant(t.Context(), big.ID))
		if tell, _ = s.ApplicationsToTell(t.Context(), 10); len(tell) != 1 {
			t.Fatalf("to tell after one mail: %d, want 1", len(tell))
		}
		var text strings.Builder
		for e, err := range s.AuditLog(t.Context(), alice.Service, AuditFilter{}) {
			must(t, err)
			text.WriteString(e.Action + " " + e.Reason + "\n")
		}
		for _, want := range []string{AuditActionAppInvite, AuditActionAppSubmit, strings.Repeat("c", 64), AuditActionAppMatch,
			"created by the approval of application", AuditActionAppDecide, "the applicant was e-mailed"} {
			if !strings.Contains(text.String(), want) {
				t.Errorf("audit trail lacks %q:\n%s", want, text.String())
			}
		}
	})
}

// TestApplicationBounds: documents per application, saves per link, the
// public link's drafts and a revoked or expired link.
func TestApplicationBounds(t *testing.T) {
	eachEngineClock(t, func(t *testing.T, s *Store, c *clock) {
		app, err := s.Invite(t.Context(), alice, Invitation{Company: "Fabrikam", Email: "a@fabrikam.test"})
		must(t, err)
		for i := range MaxDocuments {
			_, err := s.AddDocument(t.Context(), app.ID, app.Nonce, Document{Name: "d.png", Type: "image/png", Data: []byte{byte(i)}})
			must(t, err)
		}
		_, err = s.AddDocument(t.Context(), app.ID, app.Nonce, Document{Name: "d.png", Type: "image/png", Data: []byte{9}})
		wantInvalid(t, "fourth document", err, "document")
		_, err = s.AddDocument(t.Context(), app.ID, app.Nonce, Document{Name: "big.pdf", Data: make([]byte, MaxDocumentBytes+1)})
		wantInvalid(t, "document over 10 MB", err, "document")
		_, err = s.SaveAnswers(t.Context(), app.ID, app.Nonce, strings.Repeat("x", MaxAnswersBytes+1))
		wantInvalid(t, "answers too long", err, "answers")
		_, err = s.Invite(t.Context(), alice, Invitation{Company: "Evil", Email: "a@b.test\r\nBcc: c@d.test"})
		wantInvalid(t, "e-mail with a line break", err, "email")

		_, err = s.RevokeApplication(t.Context(), alice, app.ID, "sent to the wrong address")
		must(t, err)
		_, err = s.SaveAnswers(t.Context(), app.ID, app.Nonce, `{}`)
		wantErr(t, "save revoked", err, ErrApplicationClosed)
		if _, err := s.RevokeApplication(t.Context(), aliceElse, app.ID, "x"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("another team's revoke: err = %v, want not found", err)
		}

		short, err := s.Invite(t.Context(), alice, Invitation{Company: "Brief", Email: "a@brief.test", Life: time.Hour})
		must(t, err)
		c.jump(time.Hour)
		_, err = s.SaveAnswers(t.Context(), short.ID, short.Nonce, `{}`)
		wantErr(t, "save expired", err, ErrApplicationClosed)

		if _, err := s.StartPublicApplication(t.Context(), alice.Service, "nope", time.Hour); !errors.Is(err, ErrNotFound) {
			t.Fatalf("public link off: err = %v", err)
		}
		nonce, err := s.SetApplicationLink(t.Context(), alice, true)
		must(t, err)
		for range MaxPublicDrafts {
			_, err := s.StartPublicApplication(t.Context(), alice.Service, nonce, time.Hour)
			must(t, err)
		}
		_, err = s.StartPublicApplication(t.Context(), alice.Service, nonce, time.Hour)
		wantErr(t, "public drafts past the bound", err, ErrApplicationsFull)
		_, err = s.SetApplicationLink(t.Context(), alice, false)
		must(t, err)
		if _, err := s.StartPublicApplication(t.Context(), alice.Service, nonce, time.Hour); !errors.Is(err, ErrNotFound) {
			t.Fatalf("public link switched off: err = %v", err)
		}
	})
}

// TestReferenceAnswersOnceAndReminders: a reference answers once; its
// reminders are claimed one at a time and stop once it answered.
func TestReferenceAnswersOnceAndReminders(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		app := submitted(t, s, "Tailspin Toys")
		ref := app.References[0]
		if _, ok, err := s.NoteReminder(t.Context(), ref.ID, 1); err != nil || !ok {
			t.Fatalf("first reminder: ok %v, err %v", ok, err)
		}
		if _, ok, _ := s.NoteReminder(t.Context(), ref.ID, 1); ok {
			t.Fatal("first reminder claimed twice")
		}
		if _, err := s.AnswerReference(t.Context(), ref.ID, "bad", `{}`, "192.0.2.9"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("wrong nonce: %v", err)
		}
		_, err := s.AnswerReference(t.Context(), ref.ID, ref.Nonce, `{"years":"4"}`, "192.0.2.9")
		must(t, err)
		_, err = s.AnswerReference(t.Context(), ref.ID, ref.Nonce, `{"years":"5"}`, "192.0.2.9")
		wantErr(t, "answer twice", err, ErrReferenceClosed)
		if _, ok, _ := s.NoteReminder(t.Context(), ref.ID, 2); ok {
			t.Fatal("a reminder after the answer")
		}
		got, err := s.TeamApplication(t.Context(), alice, app.ID)
		must(t, err)
		if !got.References[0].Answered() || got.References[0].Answer != `{"years":"4"}` {
			t.Fatalf("answer kept: %+v", got.References[0])
		}
	})
}
