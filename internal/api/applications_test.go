package api_test

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/api"
	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// TestApplicationsThroughTheAPI, on both engines, every answer held to
// the document: an auditor's read token walks the team's applications
// newest first by cursor and by status; one application answers its
// answers as typed, its documents by SHA-256 without their bytes, its
// references, and, once approved, its account and the decision it made,
// which the decisions' path reads; the link's secret and the applicant's
// address are never answered; bad filters are 422, an unknown id 404.
func TestApplicationsThroughTheAPI(t *testing.T) {
	engines(t, func(t *testing.T, app *apptest.App, clk *clock) {
		ctx := t.Context()
		demo := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
		asked := 40000.0
		invite := func(company string) store.Application {
			t.Helper()
			a, err := app.Store.Invite(ctx, demo, store.Invitation{Company: company, Email: "buyer@" + strings.ToLower(company[:4]) + ".test", Requested: &asked})
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
		pdf := []byte("%PDF-1.4 accounts")
		sum := sha256.Sum256(pdf)
		answers := `{"legal_name":"Northwind Traders Ltd","contact_name":"Ann Buyer","limit":"40,000","terms":"Net 30",` +
			`"trade":[{"name":"Supplier One","contact":"Sam","email":"sam@supplier.test"},{},{}],"bank":{"name":"First Bank","contact":"Bo","email":"bo@bank.test"},` +
			`"signer_name":"Ann Buyer","consent":true}`
		submit := func(a store.Application) store.Application {
			t.Helper()
			if _, err := app.Store.SaveAnswers(ctx, a.ID, a.Nonce, answers); err != nil {
				t.Fatal(err)
			}
			if _, err := app.Store.AddDocument(ctx, a.ID, a.Nonce, store.Document{Name: "accounts.pdf", Type: "application/pdf", SHA256: hex.EncodeToString(sum[:]), Data: pdf}); err != nil {
				t.Fatal(err)
			}
			a, err := app.Store.SubmitApplication(ctx, a.ID, a.Nonce, store.Submission{Answers: answers, Company: a.Company, Email: a.Email,
				From: "192.0.2.7", SignedSHA256: strings.Repeat("c", 64), Signer: "Ann Buyer",
				References: []store.ReferenceSpec{{Kind: "trade", Name: "Supplier One", Contact: "Sam", Email: "sam@supplier.test"},
					{Kind: "bank", Name: "First Bank", Contact: "Bo", Email: "bo@bank.test"}}})
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
		north := submit(invite("Northwind"))
		if _, err := app.Store.MatchApplication(ctx, demo, north.ID, 1001, "name search"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := app.Store.DecideApplication(ctx, demo, north.ID, store.AppDecision{Approve: true, Amount: 5000, Note: "fine", Authority: 250000}); err != nil {
			t.Fatal(err)
		}
		contoso := submit(invite("Contoso"))
		var invited []store.Application
		for _, c := range []string{"Fabrikam", "Tailspin", "Wingtip"} {
			invited = append(invited, invite(c))
		}

		token := signIn(t, app, "trade").makeToken("inbox", "read", 5, clk.Now())
		var seen []string
		next := "/api/v1/applications?limit=2"
		for next != "" {
			var p api.ApplicationPage
			get(t, app, token, next).into(t, http.StatusOK, &p)
			for _, a := range p.Applications {
				seen = append(seen, a.Company)
			}
			next = ""
			if p.Next != nil {
				next = *p.Next
			}
		}
		if strings.Join(seen, ",") != "Wingtip,Tailspin,Fabrikam,Contoso,Northwind" {
			t.Errorf("walked %v, want newest first", seen)
		}
		var p api.ApplicationPage
		get(t, app, token, "/api/v1/applications?status=submitted").into(t, http.StatusOK, &p)
		if len(p.Applications) != 1 || p.Applications[0].ID != itoa(contoso.ID) || p.Applications[0].SubmittedAt == nil || p.NextCursor != nil {
			t.Errorf("submitted: %+v", p.Applications)
		}
		get(t, app, token, "/api/v1/applications?status=invited&limit=1").into(t, http.StatusOK, &p)
		if len(p.Applications) != 1 || p.Applications[0].Company != "Wingtip" || p.Next == nil || !strings.Contains(*p.Next, "status=invited") {
			t.Errorf("invited, one a page: %+v next %v", p.Applications, p.Next)
		}
		if a := get(t, app, token, "/api/v1/applications?status=maybe&cursor=zz&limit=0"); a.Status != http.StatusUnprocessableEntity || len(a.problem(t).Errors) != 3 {
			t.Errorf("bad filters: %d %s", a.Status, a.Body)
		}

		a := get(t, app, token, "/api/v1/applications/"+itoa(north.ID))
		var rec api.ApplicationRecord
		a.into(t, http.StatusOK, &rec)
		if rec.Status != store.AppApproved || rec.Account == nil || rec.DecisionID == nil || *rec.DecidedAmount != 5000 || *rec.BusinessID != 1001 ||
			rec.Answers == nil || rec.Answers.LegalName != "Northwind Traders Ltd" || rec.Answers.LimitAsked != "40,000" || len(rec.Answers.Trade) != 1 ||
			rec.Answers.Bank == nil || rec.Answers.Bank.Name != "First Bank" || !rec.Answers.Consent || *rec.SignedSHA256 != strings.Repeat("c", 64) {
			t.Errorf("Northwind: %+v answers %+v", rec.Application, rec.Answers)
		}
		if len(rec.Documents) != 1 || rec.Documents[0].SHA256 != hex.EncodeToString(sum[:]) || rec.Documents[0].Size != int64(len(pdf)) ||
			len(rec.References) != 2 || rec.References[0].AskedAt == nil || rec.References[0].AnsweredAt != nil {
			t.Errorf("Northwind's documents %+v, references %+v", rec.Documents, rec.References)
		}
		if body := string(a.Body); strings.Contains(body, north.Nonce) || strings.Contains(body, "192.0.2.7") || strings.Contains(body, "%PDF") {
			t.Errorf("the answer holds the link's secret, the applicant's address or a document's bytes: %s", body)
		}
		var d api.Decision
		get(t, app, token, "/api/v1/decisions/"+*rec.DecisionID).into(t, http.StatusOK, &d)
		if d.Account != *rec.Account || d.Amount != 5000 {
			t.Errorf("the decision it made: %+v", d)
		}
		rec = api.ApplicationRecord{}
		get(t, app, token, "/api/v1/applications/"+itoa(invited[0].ID)).into(t, http.StatusOK, &rec)
		if rec.Answers != nil || len(rec.Documents) != 0 || rec.SubmittedAt != nil || rec.CreatedBy != "demo" || rec.Source != store.SourceInvitation {
			t.Errorf("an invitation: %+v", rec)
		}
		for _, path := range []string{"/api/v1/applications/999", "/api/v1/applications/x"} {
			if a := get(t, app, token, path); a.Status != http.StatusNotFound || !strings.Contains(a.problem(t).Detail, "application") {
				t.Errorf("%s: %d %s", path, a.Status, a.Body)
			}
		}
	})
}

// itoa is an id as the API writes it.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }
