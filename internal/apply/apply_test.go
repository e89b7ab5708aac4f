package apply_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"creditdash/internal/applications"
	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// started is a dashboard with an invitation made by demo (a manager) and
// a stranger's browser holding its link.
func started(t *testing.T, s applications.Settings) (*apptest.App, *apptest.User, string) {
	t.Helper()
	app := apptest.Start(t, apptest.Options{Applications: s})
	demo := app.SignIn(t, "demo")
	path := apptest.Invite(t, demo, "Northwind Traders", "buyer@northwind.test", "40,000")
	return app, app.NewUser(t), path
}

// TestDraftDocumentSubmitReceived: a stranger without a session opens the
// link, saves a draft with a PDF, comes back to it, is told what is
// missing with the input kept (422), signs and sends it; the link then
// says received and changes nothing more.
func TestDraftDocumentSubmitReceived(t *testing.T) {
	app, u, path := started(t, applications.Settings{})
	p, hidden := apptest.ApplyForm(t, u, path)
	for _, c := range u.Cookies() {
		if c.Name != "apply_csrf" {
			t.Errorf("the public form set cookie %q; it has no session", c.Name)
		}
	}
	if !strings.Contains(p.Text("main"), "Northwind Traders") {
		t.Errorf("the form does not name the invited company: %q", p.Text("h1, main > p"))
	}
	draft := url.Values{"legal_name": {"Northwind Traders Ltd"}, "contact_email": {"ann@northwind.test"}, "action": {"save"}}
	saved := u.PostMultipart(path, apptest.Merge(hidden, draft), "document", "accounts 2025.pdf", apptest.PDF)
	if saved.Status != http.StatusSeeOther || !strings.HasSuffix(saved.Location(), "?saved=1") {
		t.Fatalf("save: status = %d, location %q; body %.300s", saved.Status, saved.Location(), saved.Body)
	}
	back, hidden := apptest.ApplyForm(t, u, saved.Location())
	if v, _ := back.Doc.Find("#legal_name").Attr("value"); v != "Northwind Traders Ltd" {
		t.Errorf("the draft's legal name = %q", v)
	}
	if !strings.Contains(back.Text("#documents"), "accounts 2025.pdf (PDF") {
		t.Errorf("the document is not listed: %q", back.Text("#documents"))
	}
	missing := apptest.Merge(hidden, apptest.Answers("Northwind Traders Ltd", "ann@northwind.test"), url.Values{"signer_title": {""}, "action": {"submit"}})
	refused := u.PostMultipart(path, missing, "", "", nil)
	if refused.Status != http.StatusUnprocessableEntity || refused.Text("#signer_title-error") == "" {
		t.Fatalf("submit without a title: status = %d, error %q", refused.Status, refused.Text("#signer_title-error"))
	}
	if v, _ := refused.Doc.Find("#address").Attr("value"); v != "12 Harbour Road, Portsmouth PO1 3AX" {
		t.Errorf("the refused form lost the address typed: %q", v)
	}
	_, hidden = apptest.ApplyForm(t, u, path)
	sent := u.PostMultipart(path, apptest.Merge(hidden, apptest.Answers("Northwind Traders Ltd", "ann@northwind.test"), url.Values{"action": {"submit"}}), "", "", nil)
	if sent.Status != http.StatusSeeOther {
		t.Fatalf("submit: status = %d; body %.400s", sent.Status, sent.Body)
	}
	done := u.Get(path)
	if done.Status != http.StatusOK || !strings.Contains(done.Text("#apply-notice"), "received") {
		t.Fatalf("after submit: status = %d, %q", done.Status, done.Text("main"))
	}
	again := u.PostMultipart(path, apptest.Merge(hidden, url.Values{"legal_name": {"Changed"}, "action": {"save"}}), "", "", nil)
	if !strings.Contains(again.Text("#apply-notice"), "can no longer be changed") {
		t.Fatalf("a post after submit: %d %q", again.Status, again.Text("main"))
	}
	list, err := app.Store.Applications(t.Context(), store.Analyst{Service: apptest.WorkspaceService, User: "demo"})
	if err != nil || len(list) != 1 || list[0].Status != store.AppSubmitted || list[0].Company != "Northwind Traders Ltd" {
		t.Fatalf("kept: %+v, %v", list, err)
	}
}

// TestLinksCannotBeEnumerated: an altered token, a made-up one and one
// of another kind all get the same 404 page.
func TestLinksCannotBeEnumerated(t *testing.T) {
	app, u, path := started(t, applications.Settings{})
	token := strings.TrimPrefix(path, "/apply/")
	altered := token[:len(token)-2] + "AA"
	if altered == token {
		altered = token[:len(token)-2] + "BB"
	}
	var first string
	for _, p := range []string{"/apply/" + altered, "/apply/abc.def", "/apply/" + strings.Repeat("x", 2000), "/reference/" + token} {
		got := u.Get(p)
		if got.Status != http.StatusNotFound {
			t.Fatalf("GET %.60s: status = %d, want 404", p, got.Status)
		}
		if first == "" {
			first = got.Text("#apply-notice")
		} else if got.Text("#apply-notice") != first {
			t.Errorf("GET %.60s says %q, another bad link %q: a stranger could tell them apart", p, got.Text("#apply-notice"), first)
		}
	}
	if got := app.NewUser(t).Get("/applications"); got.Status != http.StatusSeeOther {
		t.Errorf("the inbox without signing in: status = %d, want a redirect to sign in", got.Status)
	}
}

// TestFormTokenHoneypotAndFillTime: a post without the form's token or
// without its cookie (another site's) is 403; the honeypot filled is 400
// and keeps nothing; a submit faster than the minimum fill time is 422
// with the draft kept.
func TestFormTokenHoneypotAndFillTime(t *testing.T) {
	app, u, path := started(t, applications.Settings{MinFill: time.Hour})
	_, hidden := apptest.ApplyForm(t, u, path)
	answers := apptest.Answers("Contoso Ltd", "ann@contoso.test")
	if p := u.PostMultipart(path, apptest.Merge(answers, url.Values{"action": {"save"}}), "", "", nil); p.Status != http.StatusForbidden {
		t.Errorf("no form token: status = %d, want 403", p.Status)
	}
	stranger := app.NewUser(t)
	if p := stranger.PostMultipart(path, apptest.Merge(hidden, answers, url.Values{"action": {"save"}}), "", "", nil); p.Status != http.StatusForbidden {
		t.Errorf("the token without its cookie (a cross-site post): status = %d, want 403", p.Status)
	}
	if p := u.PostMultipart(path, apptest.Merge(hidden, answers, url.Values{"website": {"http://spam.test"}, "action": {"save"}}), "", "", nil); p.Status != http.StatusBadRequest {
		t.Errorf("honeypot filled: status = %d, want 400", p.Status)
	}
	fast := u.PostMultipart(path, apptest.Merge(hidden, answers, url.Values{"action": {"submit"}}), "", "", nil)
	if fast.Status != http.StatusUnprocessableEntity || !strings.Contains(fast.Text("#form-error"), "Take a moment") {
		t.Fatalf("submit within the minimum fill time: status = %d, %q", fast.Status, fast.Text("#form-error"))
	}
	list, _ := app.Store.Applications(t.Context(), store.Analyst{Service: apptest.WorkspaceService, User: "demo"})
	if len(list) != 1 || list[0].Status != store.AppDraft {
		t.Fatalf("after the fast submit: %+v, want one draft (kept, not submitted)", list)
	}
	full, _ := app.Store.TeamApplication(t.Context(), store.Analyst{Service: apptest.WorkspaceService, User: "demo"}, list[0].ID)
	if applications.Parse(full.Answers).LegalName != "Contoso Ltd" || full.Saves != 1 {
		t.Errorf("the honeypot's post was kept, or the fast one's draft was not: saves %d, %q", full.Saves, full.Answers)
	}
}

// TestRateLimits: past the per-address and per-link limits the public
// pages answer 429 with Retry-After.
func TestRateLimits(t *testing.T) {
	_, u, path := started(t, applications.Settings{PerAddress: 1000, PerLink: 2})
	_, hidden := apptest.ApplyForm(t, u, path)
	draft := apptest.Merge(hidden, url.Values{"legal_name": {"Fabrikam"}, "action": {"save"}})
	for i := range 2 {
		if p := u.PostMultipart(path, draft, "", "", nil); p.Status != http.StatusSeeOther {
			t.Fatalf("save %d: status = %d", i+1, p.Status)
		}
	}
	p := u.PostMultipart(path, draft, "", "", nil)
	if p.Status != http.StatusTooManyRequests || p.Header.Get("Retry-After") == "" {
		t.Fatalf("third save to one link: status = %d, Retry-After %q; want 429 with it", p.Status, p.Header.Get("Retry-After"))
	}

	_, v, vpath := started(t, applications.Settings{PerAddress: 3})
	for i := range 3 {
		if p := v.Get(vpath); p.Status != http.StatusOK {
			t.Fatalf("GET %d: status = %d", i+1, p.Status)
		}
	}
	p = v.Get(vpath)
	if p.Status != http.StatusTooManyRequests || p.Header.Get("Retry-After") == "" {
		t.Fatalf("fourth request from one address: status = %d, Retry-After %q", p.Status, p.Header.Get("Retry-After"))
	}
}

// TestDocumentsTypedByContentAndBounded: a page of HTML named .pdf is
// refused (by what it is, not its name), a PNG is kept as PNG, a fourth
// document and one over 10 MB are refused, all with the input kept; the
// documents are never served to the public.
func TestDocumentsTypedByContentAndBounded(t *testing.T) {
	app, u, path := started(t, applications.Settings{})
	_, hidden := apptest.ApplyForm(t, u, path)
	save := apptest.Merge(hidden, url.Values{"legal_name": {"Tailspin Toys"}, "action": {"save"}})
	p := u.PostMultipart(path, save, "document", "statement.pdf", []byte("<html><script>alert(1)</script></html>"))
	if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text("#document-error"), "PDF, PNG or JPEG") {
		t.Fatalf("HTML named .pdf: status = %d, %q", p.Status, p.Text("#document-error"))
	}
	if v, _ := p.Doc.Find("#legal_name").Attr("value"); v != "Tailspin Toys" {
		t.Errorf("the refused upload lost the input: %q", v)
	}
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00")
	for i, f := range []struct {
		name string
		data []byte
	}{{"letter.png", png}, {"a.pdf", apptest.PDF}, {"b.jpg", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00")}} {
		if p := u.PostMultipart(path, save, "document", f.name, f.data); p.Status != http.StatusSeeOther {
			t.Fatalf("document %d: status = %d; %.300s", i+1, p.Status, p.Text("main"))
		}
	}
	fourth := u.PostMultipart(path, save, "document", "c.pdf", apptest.PDF)
	if fourth.Status != http.StatusUnprocessableEntity || fourth.Doc.Find("#document").Length() != 0 {
		t.Fatalf("a fourth document: status = %d, the file input still offered: %v", fourth.Status, fourth.Doc.Find("#document").Length() != 0)
	}
	big := append(append([]byte{}, apptest.PDF...), make([]byte, store.MaxDocumentBytes)...)
	if p := u.PostMultipart(path, save, "document", "big.pdf", big); p.Status != http.StatusRequestEntityTooLarge && p.Status != http.StatusUnprocessableEntity {
		t.Fatalf("a document over 10 MB: status = %d", p.Status)
	}
	demo := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	list, _ := app.Store.Applications(t.Context(), demo)
	full, _ := app.Store.TeamApplication(t.Context(), demo, list[0].ID)
	if len(full.Documents) != 3 || full.Documents[0].Type != "image/png" {
		t.Fatalf("kept documents: %+v", full.Documents)
	}
	if p := app.NewUser(t).Get("/applications/" + itoa(full.ID) + "/documents/1"); p.Status != http.StatusSeeOther || strings.Contains(p.Body, "PNG") {
		t.Errorf("a document without signing in: status = %d, want the sign-in redirect", p.Status)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
