// Package applications is the domain of credit applications from new
// customers (issue 44): the answers a stranger sends and their checks,
// the signed links, the documents' types, the mails and the job queue's
// work (reference reminders, the outcome). The pages are elsewhere: the
// public ones in internal/apply, the team's inbox in internal/handlers.
package applications

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/mail"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"creditdash/internal/amount"
	"creditdash/internal/store"
)

// Terms are the payment terms an applicant may ask for.
var Terms = []string{"Net 15", "Net 30", "Net 45", "Net 60", "Net 90"}

// MaxTradeReferences is how many trade references a form names.
const MaxTradeReferences = 3

// Contact is a reference as the applicant names it.
type Contact struct {
	Name    string `json:"name"`
	Contact string `json:"contact"`
	Email   string `json:"email"`
}

// empty tells whether nothing of the contact was typed.
func (c Contact) empty() bool { return c.Name == "" && c.Contact == "" && c.Email == "" }

// Form is the applicant's answers, as typed (kept as a draft) and checked
// when submitted.
type Form struct {
	LegalName    string                      `json:"legal_name"`
	TradingName  string                      `json:"trading_name"`
	Registration string                      `json:"registration"`
	Address      string                      `json:"address"`
	ContactName  string                      `json:"contact_name"`
	ContactEmail string                      `json:"contact_email"`
	ContactPhone string                      `json:"contact_phone"`
	Years        string                      `json:"years"`
	Limit        string                      `json:"limit"`
	Terms        string                      `json:"terms"`
	Monthly      string                      `json:"monthly"`
	Trade        [MaxTradeReferences]Contact `json:"trade"`
	Bank         Contact                     `json:"bank"`
	SignerName   string                      `json:"signer_name"`
	SignerTitle  string                      `json:"signer_title"`
	Consent      bool                        `json:"consent"`
}

// field is a text field's name on the page, its place in the form and
// its longest length.
type field struct {
	name string
	at   func(*Form) *string
	max  int
}

// fields are the form's text fields, in the page's order.
var fields = []field{
	{"legal_name", func(f *Form) *string { return &f.LegalName }, 200},
	{"trading_name", func(f *Form) *string { return &f.TradingName }, 200},
	{"registration", func(f *Form) *string { return &f.Registration }, 64},
	{"address", func(f *Form) *string { return &f.Address }, 300},
	{"contact_name", func(f *Form) *string { return &f.ContactName }, 120},
	{"contact_email", func(f *Form) *string { return &f.ContactEmail }, 254},
	{"contact_phone", func(f *Form) *string { return &f.ContactPhone }, 40},
	{"years", func(f *Form) *string { return &f.Years }, 10},
	{"limit", func(f *Form) *string { return &f.Limit }, 40},
	{"terms", func(f *Form) *string { return &f.Terms }, 20},
	{"monthly", func(f *Form) *string { return &f.Monthly }, 40},
	{"bank_name", func(f *Form) *string { return &f.Bank.Name }, 200},
	{"bank_contact", func(f *Form) *string { return &f.Bank.Contact }, 120},
	{"bank_email", func(f *Form) *string { return &f.Bank.Email }, 254},
	{"signer_name", func(f *Form) *string { return &f.SignerName }, 120},
	{"signer_title", func(f *Form) *string { return &f.SignerTitle }, 120},
}

func init() {
	for i := range MaxTradeReferences {
		n := strconv.Itoa(i + 1)
		fields = append(fields,
			field{"trade" + n + "_name", func(f *Form) *string { return &f.Trade[i].Name }, 200},
			field{"trade" + n + "_contact", func(f *Form) *string { return &f.Trade[i].Contact }, 120},
			field{"trade" + n + "_email", func(f *Form) *string { return &f.Trade[i].Email }, 254})
	}
}

// Read takes the form's fields from value (a request's FormValue): each
// made one line of valid text and clipped a little past its bound, so
// what was typed comes back to be corrected, never grows the draft.
func Read(value func(string) string) Form {
	var f Form
	for _, fd := range fields {
		*fd.at(&f) = clip(oneLine(value(fd.name)), fd.max+20)
	}
	f.Consent = value("consent") == "yes"
	return f
}

// Value is a field's typed value by its name ("" for none): the page
// fills its inputs with it.
func (f *Form) Value(name string) string {
	for _, fd := range fields {
		if fd.name == name {
			return *fd.at(f)
		}
	}
	return ""
}

// labels name the answers for the team's pages and the memo.
var labels = map[string]string{"legal_name": "Legal name", "trading_name": "Trading name", "registration": "Registration or tax number",
	"address": "Address", "contact_name": "Contact", "contact_email": "Contact's e-mail", "contact_phone": "Contact's phone",
	"years": "Years in business", "limit": "Credit limit asked", "terms": "Payment terms asked", "monthly": "Expected purchases a month",
	"signer_name": "Signed by", "signer_title": "Signer's title"}

// Answer is one answer as the team reads it.
type Answer struct{ Label, Value string }

// Answers are the business's answers in the form's order, labelled
// (references and the bank are listed with their answers elsewhere).
func (f *Form) Answers() []Answer {
	var out []Answer
	for _, fd := range fields {
		if l, ok := labels[fd.name]; ok {
			out = append(out, Answer{Label: l, Value: *fd.at(f)})
		}
	}
	return out
}

// Values are the text fields by name, for the page.
func (f *Form) Values() map[string]string {
	out := make(map[string]string, len(fields))
	for _, fd := range fields {
		out[fd.name] = *fd.at(f)
	}
	return out
}

// oneLine keeps s as one line of printable text: control characters
// (line breaks included) become spaces, invalid UTF-8 goes, and spaces at
// either end are trimmed. Everything that reaches a mail header or a CSV
// cell passed through here.
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// clip keeps at most n characters of s.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// Problems are the form's refusals by field name, as sentences.
type Problems map[string]string

// CheckDraft refuses only what a draft may not keep: fields past their
// bounds.
func (f *Form) CheckDraft() Problems {
	p := Problems{}
	for _, fd := range fields {
		if n := utf8.RuneCountInString(*fd.at(f)); n > fd.max {
			p[fd.name] = fmt.Sprintf("Keep this to %d characters (it has %d).", fd.max, n)
		}
	}
	return p
}

// CheckSubmit refuses what a submitted application may not hold: bounds,
// the required answers, amounts, e-mail addresses, references named in
// full, the terms offered, the consent and the signature.
func (f *Form) CheckSubmit() Problems {
	p := f.CheckDraft()
	need := func(name, v, msg string) {
		if v == "" && p[name] == "" {
			p[name] = msg
		}
	}
	need("legal_name", f.LegalName, "Give the business's legal name.")
	need("registration", f.Registration, "Give the registration or tax number.")
	need("address", f.Address, "Give the business's address.")
	need("contact_name", f.ContactName, "Name the person we may contact.")
	need("contact_email", f.ContactEmail, "Give the contact's e-mail address: the decision is sent there.")
	need("signer_name", f.SignerName, "Type your full name to sign.")
	need("signer_title", f.SignerTitle, "Give your title.")
	if f.ContactEmail != "" && p["contact_email"] == "" && !ValidEmail(f.ContactEmail) {
		p["contact_email"] = "This is not an e-mail address such as name@example.com."
	}
	if y, err := strconv.Atoi(f.Years); err != nil || y < 0 || y > 300 {
		p["years"] = "Give the years in business as a whole number, such as 12."
	}
	for _, a := range []struct{ name, v, what string }{{"limit", f.Limit, "the limit you ask for"}, {"monthly", f.Monthly, "the purchases you expect each month"}} {
		v, ok, err := amount.Typed(a.v)
		switch {
		case !ok && err == nil:
			p[a.name] = "Give " + a.what + ", such as 25,000."
		case err != nil:
			p[a.name] = sentence(err.Error())
		case store.CheckAmount(v, false) != nil || v <= 0:
			p[a.name] = "Give an amount above 0 and up to 10,000,000,000,000."
		}
	}
	if !contains(Terms, f.Terms) {
		p["terms"] = "Choose the payment terms you ask for."
	}
	refs := func(prefix string, c Contact) {
		if c.empty() {
			return
		}
		need(prefix+"_name", c.Name, "Name the reference, or leave its three fields empty.")
		need(prefix+"_email", c.Email, "Give the reference's e-mail address: we ask them by e-mail.")
		if c.Email != "" && p[prefix+"_email"] == "" && !ValidEmail(c.Email) {
			p[prefix+"_email"] = "This is not an e-mail address such as name@example.com."
		}
	}
	for i, c := range f.Trade {
		refs("trade"+strconv.Itoa(i+1), c)
	}
	refs("bank", f.Bank)
	if !f.Consent {
		p["consent"] = "Tick the box to agree to the checks and sign."
	}
	return p
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// sentence makes an error's message a sentence for a page.
func sentence(s string) string {
	if i := strings.Index(s, ": "); i >= 0 && !strings.Contains(s[:i], " ") {
		s = s[i+2:]
	}
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// ValidEmail tells whether s is a bare e-mail address on one line: no
// display name, no line breaks, nothing a mail header could be made of.
func ValidEmail(s string) bool {
	if len(s) > 254 || strings.ContainsAny(s, "\r\n<>,;\"") {
		return false
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && a.Name == "" && strings.Contains(s[strings.LastIndexByte(s, '@')+1:], ".")
}

// References are the references the form names, in order: trade first,
// then the bank.
func (f *Form) References() []store.ReferenceSpec {
	var out []store.ReferenceSpec
	for _, c := range f.Trade {
		if !c.empty() {
			out = append(out, store.ReferenceSpec{Kind: "trade", Name: c.Name, Contact: c.Contact, Email: c.Email})
		}
	}
	if !f.Bank.empty() {
		out = append(out, store.ReferenceSpec{Kind: "bank", Name: f.Bank.Name, Contact: f.Bank.Contact, Email: f.Bank.Email})
	}
	return out
}

// JSON is the form as the store keeps it.
func (f *Form) JSON() string {
	b, _ := json.Marshal(f) // strings and a bool: never fails
	return string(b)
}

// Parse reads answers as the store keeps them; "" or "{}" is an empty form.
func Parse(answers string) Form {
	var f Form
	_ = json.Unmarshal([]byte(answers), &f) // a draft that does not read is an empty form
	return f
}

// ConsentText is what the applicant agrees to by signing.
const ConsentText = "I confirm that the answers and documents in this application are true and complete, and I authorise the supplier to check them, to obtain credit reports on the business and to contact the references named."

// Statement is the exact text the applicant signs: every answer, each
// document by name and SHA-256, the consent, the signer, the time and the
// address. Its SHA-256 goes into the audit trail.
func Statement(number int64, f Form, docs []store.Document, at time.Time, from string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Credit application %d\n", number)
	for _, fd := range fields {
		fmt.Fprintf(&b, "%s: %s\n", fd.name, *fd.at(&f))
	}
	for _, d := range docs {
		fmt.Fprintf(&b, "document %d: %s (%s, %d bytes, SHA-256 %s)\n", d.N, d.Name, d.Type, d.Size, d.SHA256)
	}
	fmt.Fprintf(&b, "consent: %s\nsigned by %s, %s, at %s from %s\n", ConsentText, f.SignerName, f.SignerTitle, at.UTC().Format(time.RFC3339), from)
	return b.String()
}

// Hash is the SHA-256 of a statement, in hex.
func Hash(statement string) string {
	h := sha256.Sum256([]byte(statement))
	return hex.EncodeToString(h[:])
}
