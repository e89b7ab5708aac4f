package handlers_test

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// applyAs fills in and sends the application at path as a stranger, with
// a PDF, and returns the application as the team's store keeps it.
func applyAs(t *testing.T, app *apptest.App, path, company, email string) store.Application {
	t.Helper()
	u := app.NewUser(t)
	_, hidden := apptest.ApplyForm(t, u, path)
	saved := u.PostMultipart(path, apptest.Merge(hidden, url.Values{"legal_name": {company}, "action": {"save"}}), "document", "accounts.pdf", apptest.PDF)
	if saved.Status != http.StatusSeeOther {
		t.Fatalf("save: status = %d; %.300s", saved.Status, saved.Text("main"))
	}
	_, hidden = apptest.ApplyForm(t, u, path)
	sent := u.PostMultipart(path, apptest.Merge(hidden, apptest.Answers(company, email), url.Values{"action": {"submit"}}), "", "", nil)
	if sent.Status != http.StatusSeeOther {
		t.Fatalf("submit: status = %d; %.400s", sent.Status, sent.Text("main"))
	}
	demo := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	list, err := app.Store.Applications(t.Context(), demo)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range list {
		if a.Company == company {
			full, err := app.Store.TeamApplication(t.Context(), demo, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			return full
		}
	}
	t.Fatalf("no application of %s kept", company)
	return store.Application{}
}

// limitIn is the account's limit in force in the team's record.
func limitIn(t *testing.T, app *apptest.App, account string) float64 {
	t.Helper()
	list, err := app.Store.Accounts(t.Context(), store.Analyst{Service: apptest.WorkspaceService, User: "demo"}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range list {
		if a.Account == account && a.Limit != nil {
			return *a.Limit
		}
	}
	t.Fatalf("no account %s with a limit", account)
	return 0
}

// The whole flow through the router and a real SMTP server: the invitation
// is mailed with its link, the applicant submits with a PDF, a trade
// reference answers through the link its mail carries, the inbox lists
// the application, the business is found by its exact name and confirmed,
// the report is pulled once with its cost shown first, the document opens
// as an attachment with nosniff, and an approval within authority creates
// the account with its limit and mails the applicant the outcome; the
// approval's credit memo prints the application, the reference's answers
// and the documents. Above an analyst's authority it waits for a manager,
// whose approval settles it and mails the applicant.
func TestApplicationInboxDecisionMailsApplicant(t *testing.T) {
	mb := apptest.StartMailbox(t, "", "")
	app := apptest.Start(t, apptest.Options{SMTPURL: mb.URL})
	demo := signInWS(t, app, "demo") // a manager, authority 250,000
	name := apptest.DemoData().Businesses[0].Name
	path := apptest.Invite(t, demo.User, name, "buyer@northwind.test", "40,000")
	invite := mb.Wait(t, "the invitation", func(m apptest.Mail) bool { return m.To == "buyer@northwind.test" })
	if !strings.Contains(invite.Text, apptest.PublicURL+path) || invite.HTML != "" {
		t.Fatalf("the invitation does not carry the link %s as plain text:\n%s", path, invite.Text)
	}
	a := applyAs(t, app, path, name, "ann@northwind.test")
	id := strconvI(a.ID)

	// A reference answers through the link its mail carries.
	ask := mb.Wait(t, "the trade reference's ask", func(m apptest.Mail) bool { return m.To == "sam@harbourpaper.test" })
	refPath := apptest.LinkIn(t, ask, "/reference/")
	ref := app.NewUser(t)
	_, hidden, ok := ref.Get(refPath).Form("form.apply-form")
	if !ok {
		t.Fatalf("GET %s: no reference form", refPath)
	}
	hidden.Set("years", "6")
	hidden.Set("high_credit", "18,000")
	hidden.Set("days_beyond", "4")
	hidden.Set("again", "yes")
	if got := ref.PostForm(refPath, hidden); got.Status != http.StatusOK || !strings.Contains(got.Text("main"), "Thank you") {
		t.Fatalf("the reference's answer: status = %d, %q", got.Status, got.Text("main"))
	}

	inbox := demo.Get("/applications")
	if !strings.Contains(inbox.Text("#waiting"), name) {
		t.Fatalf("the inbox's waiting list lacks %s: %q", name, inbox.Text("#waiting"))
	}
	found := demo.Get("/applications/" + id + "?find=1")
	if found.Doc.Find("#candidates form").Length() == 0 {
		t.Fatalf("no business found for %q: %q", name, found.Text("#match"))
	}
	if to := mustRedirect(t, "match", demo.Submit(found, "#candidates form")); to != "/applications/"+id+"#match" {
		t.Fatalf("match: redirect to %q", to)
	}
	page := demo.Get("/applications/" + id)
	if cost := page.Text("#report"); !strings.Contains(cost, "costs up to") {
		t.Errorf("the report's cost is not shown before pulling it: %q", cost)
	}
	if to := mustRedirect(t, "pull report", demo.Submit(page, "form#report")); !strings.HasPrefix(to, "/businesses/") {
		t.Errorf("pull report: redirect to %q", to)
	}
	if again := demo.Get("/applications/" + id); !strings.Contains(again.Text("#report"), "Pulled by demo") || again.Doc.Find("form#report").Length() != 0 {
		t.Errorf("the report can be pulled twice: %q", again.Text("#report"))
	}

	doc := demo.Get("/applications/" + id + "/documents/1")
	if doc.Status != http.StatusOK || !bytes.Equal([]byte(doc.Body), apptest.PDF) || doc.Header.Get("X-Content-Type-Options") != "nosniff" ||
		!strings.HasPrefix(doc.Header.Get("Content-Disposition"), "attachment") || doc.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("the document: status %d, headers %v", doc.Status, doc.Header)
	}

	refused := demo.post("/applications/"+id+"/decide", "outcome", "approve", "amount", "30,000", "note", "")
	if refused.Status != http.StatusUnprocessableEntity || refused.Text("#decide-error") == "" {
		t.Fatalf("approve without a note: status = %d", refused.Status)
	}
	if to := mustRedirect(t, "approve", demo.post("/applications/"+id+"/decide", "outcome", "approve", "amount", "30,000", "note", "Good references, 14 years trading")); to != "/applications/"+id+"?done=1" {
		t.Fatalf("approve: redirect to %q", to)
	}
	if l := limitIn(t, app, store.ApplicationAccount(a.Number)); l != 30000 {
		t.Fatalf("the new account's limit = %v, want 30000", l)
	}
	told := mb.Wait(t, "the outcome", func(m apptest.Mail) bool { return m.To == "ann@northwind.test" })
	if !strings.Contains(told.Text, "approved") || !strings.Contains(told.Text, "30,000") || !strings.Contains(told.Text, store.ApplicationAccount(a.Number)) {
		t.Fatalf("the outcome mail:\n%s", told.Text)
	}

	// The credit memo of the approval prints the application: its answers,
	// the signature's hash, the reference's answers and the documents.
	memoURL, _ := demo.Get("/applications/" + id).Doc.Find("#application-memo").Attr("href")
	memo := demo.Get(memoURL)
	if memo.Status != http.StatusOK || memo.Doc.Find("#memo-application-part").Length() != 1 {
		t.Fatalf("GET %q: status = %d, the application's part missing", memoURL, memo.Status)
	}
	part := memo.Text("#memo-application-part")
	for _, want := range []string{name, "HRB 48213", "Finance Director", a.SignedSHA256} {
		if !strings.Contains(part, want) {
			t.Errorf("the memo's application lacks %q", want)
		}
	}
	refs := memo.Text("#memo-references")
	for _, want := range []string{"Harbour Paper Ltd", "answered", "18,000", "Solent Freight", "First Coastal Bank", "asked"} {
		if !strings.Contains(refs, want) {
			t.Errorf("the memo's references lack %q: %q", want, refs)
		}
	}
	if docs := memo.Text("#memo-documents"); !strings.Contains(docs, "accounts.pdf (PDF") || !strings.Contains(docs, a.Documents[0].SHA256) {
		t.Errorf("the memo's documents: %q", docs)
	}

	// Above an analyst's authority: four eyes.
	dev := signInWS(t, app, "developer") // an analyst, authority 10,000
	path2 := apptest.Invite(t, dev.User, "Contoso Wholesale", "buyer@contoso.test", "")
	b := applyAs(t, app, path2, "Contoso Wholesale", "ann@contoso.test")
	id2 := strconvI(b.ID)
	mustRedirect(t, "match by id", dev.post("/applications/"+id2+"/match", "business", strconvI(int64(apptest.DemoData().Businesses[1].ID))))
	mustRedirect(t, "approve above authority", dev.post("/applications/"+id2+"/decide", "outcome", "approve", "amount", "90,000", "account", "C-9001", "note", "Trade references strong"))
	waiting := dev.Get("/applications/" + id2)
	if !strings.Contains(waiting.Text("#status"), "waiting for a second manager") {
		t.Fatalf("above authority: %q", waiting.Text("#status"))
	}
	reqURL, _ := waiting.Doc.Find("#decision a").Attr("href")
	if to := mustRedirect(t, "manager approves", demo.post(reqURL+"/approve", "note", "Agreed")); !strings.HasPrefix(to, reqURL) {
		t.Fatalf("manager approves: redirect to %q", to)
	}
	if l := limitIn(t, app, "C-9001"); l != 90000 {
		t.Fatalf("C-9001's limit = %v, want 90000", l)
	}
	mb.Wait(t, "the second outcome", func(m apptest.Mail) bool { return m.To == "ann@contoso.test" && strings.Contains(m.Text, "90,000") })
	if done := dev.Get("/applications/" + id2); !strings.Contains(done.Text("#status"), "approved") {
		t.Errorf("settled application: %q", done.Text("#status"))
	}
}

// An auditor reads the inbox and is refused every change; a typed script
// is shown as text.
func TestApplicationInboxRolesAndEscaping(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	demo := signInWS(t, app, "demo")
	path := apptest.Invite(t, demo.User, "<script>alert(1)</script> Ltd", "buyer@evil.test", "")
	a := applyAs(t, app, path, "<img src=x onerror=alert(1)>", "ann@evil.test")
	trade := signInWS(t, app, "trade")
	page := trade.Get("/applications/" + strconvI(a.ID))
	if page.Status != http.StatusOK || strings.Contains(page.Body, "<img src=x") || !strings.Contains(page.Text("h1"), "<img src=x onerror=alert(1)>") {
		t.Fatalf("the applicant's name is not shown as text: status %d, h1 %q", page.Status, page.Text("h1"))
	}
	if page.Doc.Find("form[action$='/decide']").Length() != 0 {
		t.Error("an auditor is offered the decision form")
	}
	if p := trade.post("/applications/"+strconvI(a.ID)+"/decide", "outcome", "decline", "note", "no"); p.Status != http.StatusForbidden {
		t.Errorf("an auditor's decision: status = %d, want 403", p.Status)
	}
	if p := trade.post("/applications", "company", "X", "email", "x@x.test"); p.Status != http.StatusForbidden {
		t.Errorf("an auditor's invitation: status = %d, want 403", p.Status)
	}
	if inbox := demo.Get("/applications"); strings.Contains(inbox.Body, "<script>alert(1)</script>") {
		t.Error("the invited company's script reached the inbox unescaped")
	}
	bad := demo.post("/applications", "company", "Evil", "email", "a@b.test\r\nBcc: victim@c.test")
	if bad.Status != http.StatusUnprocessableEntity || bad.Text("#email-error") == "" {
		t.Fatalf("an address with a header in it: status = %d", bad.Status)
	}
}

func strconvI(n int64) string { return strconv.FormatInt(n, 10) }

// TestApplicationsCSVMarksFormulas: applications.csv lists the inbox's
// applications; a company or an address a stranger typed that a
// spreadsheet would run as a formula (= + - @, blanks first or not) is
// marked as text with a leading apostrophe, and the rest is as typed.
func TestApplicationsCSVMarksFormulas(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	demo := signInWS(t, app, "demo")
	companies := []string{`=HYPERLINK("http://evil.test","Open")`, "+44 Traders", "-1+1", "@SUM(A1)", "  =1+1", "Northwind Traders"}
	for i, c := range companies {
		apptest.Invite(t, demo.User, c, "buyer"+strconv.Itoa(i)+"@example.test", "")
	}
	got := demo.Get("/applications.csv")
	if got.Status != http.StatusOK || !strings.HasPrefix(got.Header.Get("Content-Type"), "text/csv") ||
		!strings.HasPrefix(got.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("GET /applications.csv: status %d, headers %v", got.Status, got.Header)
	}
	rows, err := csv.NewReader(strings.NewReader(got.Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(companies)+1 || rows[0][3] != "company" {
		t.Fatalf("%d rows, header %v", len(rows), rows[0])
	}
	cells := map[string]bool{}
	for _, r := range rows[1:] {
		cells[r[3]] = true
		if r[1] != "invited" || r[2] != "invitation" {
			t.Errorf("row %v: status and source", r)
		}
	}
	for _, want := range []string{`'=HYPERLINK("http://evil.test","Open")`, "'+44 Traders", "'-1+1", "'@SUM(A1)", "'=1+1", "Northwind Traders"} {
		if !cells[want] {
			t.Errorf("no company cell %q in %v", want, cells)
		}
	}
}
