package apptest

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// PostMultipart posts fields as multipart/form-data, with one file under
// fileField when data is not nil, as a browser sends a form with a file.
func (u *User) PostMultipart(path string, fields url.Values, fileField, fileName string, data []byte) *Page {
	u.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, vs := range fields {
		for _, v := range vs {
			_ = w.WriteField(k, v)
		}
	}
	if data != nil {
		fw, err := w.CreateFormFile(fileField, fileName)
		if err != nil {
			u.t.Fatal(err)
		}
		_, _ = fw.Write(data)
	}
	_ = w.Close()
	req, err := http.NewRequest(http.MethodPost, u.app.URL+path, &body)
	if err != nil {
		u.t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	return u.Do(req)
}

// Answers is a complete credit application as a prospective customer
// fills it in: the business, a contact, the credit asked, two trade
// references and a bank, the consent and the signature.
func Answers(company, email string) url.Values {
	return url.Values{
		"legal_name": {company}, "trading_name": {company}, "registration": {"HRB 48213"},
		"address": {"12 Harbour Road, Portsmouth PO1 3AX"}, "years": {"14"},
		"contact_name": {"Ann Buyer"}, "contact_email": {email}, "contact_phone": {"+44 23 9200 1000"},
		"limit": {"40,000"}, "terms": {"Net 30"}, "monthly": {"12,500"},
		"trade1_name": {"Harbour Paper Ltd"}, "trade1_contact": {"Sam Seller"}, "trade1_email": {"sam@harbourpaper.test"},
		"trade2_name": {"Solent Freight"}, "trade2_contact": {"Pat Ledger"}, "trade2_email": {"pat@solentfreight.test"},
		"bank_name": {"First Coastal Bank"}, "bank_contact": {"Bo Banker"}, "bank_email": {"bo@firstcoastal.test"},
		"signer_name": {"Ann Buyer"}, "signer_title": {"Finance Director"}, "consent": {"yes"},
	}
}

// PDF is a small, real PDF document (one empty page).
var PDF = []byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
	"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")

// ApplyForm opens path (an /apply/ link) as u and returns the page and
// its form's hidden fields (the form's token), failing unless it is 200.
func ApplyForm(t testing.TB, u *User, path string) (*Page, url.Values) {
	t.Helper()
	p := u.Get(path)
	if p.Status != http.StatusOK {
		t.Fatalf("GET %s: status = %d, want 200; body: %.300s", path, p.Status, p.Body)
	}
	_, fields, ok := p.Form("form.apply-form")
	if !ok {
		t.Fatalf("GET %s: no application form", path)
	}
	hidden := url.Values{"_form": fields["_form"], "website": {""}}
	return p, hidden
}

// Merge is the values of each in turn, later ones replacing earlier.
func Merge(vs ...url.Values) url.Values {
	out := url.Values{}
	for _, v := range vs {
		for k, x := range v {
			out[k] = x
		}
	}
	return out
}

// Invite invites company through the inbox as the signed-in u and returns
// the invitation's path (/apply/...) as the page shows it to copy.
func Invite(t testing.TB, u *User, company, email, amount string) string {
	t.Helper()
	tok := u.Token("/applications")
	p := u.PostForm("/applications", url.Values{"_csrf": {tok}, "company": {company}, "email": {email}, "amount": {amount}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("invite: status = %d, want 303; body: %.400s", p.Status, p.Body)
	}
	page := u.Get(p.Location())
	link, _ := page.Doc.Find("#invited input").Attr("value")
	i := strings.Index(link, "/apply/")
	if i < 0 {
		t.Fatalf("invite: no link on the page: %q", page.Text("main"))
	}
	return link[i:]
}
