package api

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/applications"
	"creditdash/internal/roles"
	"creditdash/internal/store"
)

// Application is a credit application as the team's inbox lists it. The
// link's secret part and the address it was sent from are never answered.
type Application struct {
	ID        string  `json:"id"`
	Number    int64   `json:"number"`
	Source    string  `json:"source"`
	Company   string  `json:"company"`
	Email     string  `json:"email"`
	Requested *Amount `json:"requested"`
	Status    string  `json:"status"`
	// CreatedBy is the member who invited, "" for the public link.
	CreatedBy   string  `json:"created_by"`
	CreatedAt   string  `json:"created_at"`
	ExpiresAt   string  `json:"expires_at"`
	SubmittedAt *string `json:"submitted_at"`
	// SignedSHA256 is the SHA-256 of the statement the applicant signed.
	SignedSHA256  *string `json:"signed_sha256"`
	BusinessID    *int32  `json:"business_id"`
	Account       *string `json:"account"`
	DecisionID    *string `json:"decision_id"`
	DecidedBy     *string `json:"decided_by"`
	DecidedAt     *string `json:"decided_at"`
	DecidedAmount *Amount `json:"decided_amount"`
	// URL is the application's page for people.
	URL string `json:"url"`
}

// ApplicationPage is a page of the team's applications, newest first.
type ApplicationPage struct {
	Applications []Application `json:"applications"`
	NextCursor   *string       `json:"next_cursor"`
	Next         *string       `json:"next"`
}

// Contact is a reference as the applicant named it.
type Contact struct {
	Name    string `json:"name"`
	Contact string `json:"contact"`
	Email   string `json:"email"`
}

// Answers are the applicant's answers as typed (a draft's are unchecked).
type Answers struct {
	LegalName        string    `json:"legal_name"`
	TradingName      string    `json:"trading_name"`
	Registration     string    `json:"registration"`
	Address          string    `json:"address"`
	ContactName      string    `json:"contact_name"`
	ContactEmail     string    `json:"contact_email"`
	ContactPhone     string    `json:"contact_phone"`
	YearsInBusiness  string    `json:"years_in_business"`
	LimitAsked       string    `json:"limit_asked"`
	TermsAsked       string    `json:"terms_asked"`
	MonthlyPurchases string    `json:"monthly_purchases"`
	Trade            []Contact `json:"trade_references"`
	Bank             *Contact  `json:"bank_reference"`
	SignerName       string    `json:"signer_name"`
	SignerTitle      string    `json:"signer_title"`
	Consent          bool      `json:"consent"`
}

// AppDocument is a document the applicant attached, without its bytes (the
// page for people serves them).
type AppDocument struct {
	N       int    `json:"n"`
	Name    string `json:"name"`
	Type    string `json:"type"`
	Size    int64  `json:"size"`
	SHA256  string `json:"sha256"`
	AddedAt string `json:"added_at"`
}

// Reference is a reference the team asked, and whether it answered.
type Reference struct {
	Kind       string  `json:"kind"`
	Name       string  `json:"name"`
	Contact    string  `json:"contact"`
	Email      string  `json:"email"`
	AskedAt    *string `json:"asked_at"`
	Reminders  int     `json:"reminders"`
	AnsweredAt *string `json:"answered_at"`
}

// ApplicationRecord is one application with its answers, documents and
// references.
type ApplicationRecord struct {
	Application
	Answers    *Answers      `json:"answers"`
	Documents  []AppDocument `json:"documents"`
	References []Reference   `json:"references"`
}

// appStatuses are the statuses an application can have.
var appStatuses = []string{store.AppInvited, store.AppDraft, store.AppSubmitted, store.AppWaiting, store.AppApproved, store.AppDeclined, store.AppRevoked}

// applicationCursor writes and reads a page of applications' cursor: the
// id of the page's last one.
func applicationCursor(id int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte("p:" + strconv.FormatInt(id, 10)))
}

func afterApplication(cursor string) (int64, bool) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || !strings.HasPrefix(string(b), "p:") {
		return 0, false
	}
	id, err := strconv.ParseInt(string(b[2:]), 10, 64)
	return id, err == nil && id > 0
}

// listApplications is GET /api/v1/applications: the team's applications,
// newest first, by status; the walk covers the newest
// store.MaxApplicationList, as the inbox does.
func (a *API) listApplications(c *echo.Context) error {
	if err := a.may(c, roles.Read); err != nil {
		return err
	}
	var errs []FieldError
	n := pageSize(c, &errs)
	status := c.QueryParam("status")
	if status != "" && !contains(appStatuses, status) {
		errs = append(errs, FieldError{Field: "status", Detail: "one of " + strings.Join(appStatuses, ", ")})
	}
	var after int64
	if cur := c.QueryParam("cursor"); cur != "" {
		var ok bool
		if after, ok = afterApplication(cur); !ok {
			errs = append(errs, FieldError{Field: "cursor", Detail: "not a cursor this API gave; start again without one"})
		}
	}
	if errs != nil {
		return invalid(errs)
	}
	list, err := a.store.Applications(c.Request().Context(), a.analyst(c))
	if err != nil {
		return err
	}
	page := ApplicationPage{Applications: []Application{}}
	started := after == 0
	for _, app := range list {
		if !started {
			started = app.ID == after
			continue
		}
		if status != "" && app.Status != status {
			continue
		}
		if len(page.Applications) == n {
			cur := applicationCursor(page.Applications[n-1].number())
			q := c.Request().URL.Query()
			q.Set("cursor", cur)
			next := Prefix + "/applications?" + q.Encode()
			page.NextCursor, page.Next = &cur, &next
			break
		}
		page.Applications = append(page.Applications, newApplication(app))
	}
	if !started {
		return invalid([]FieldError{{Field: "cursor", Detail: "the application it names is no longer among the newest " +
			strconv.Itoa(store.MaxApplicationList) + "; start again without one"}})
	}
	return c.JSON(http.StatusOK, page)
}

// number is the application's id as a number, for its cursor.
func (p Application) number() int64 {
	id, _ := strconv.ParseInt(p.ID, 10, 64)
	return id
}

// showApplication is GET /api/v1/applications/{id}.
func (a *API) showApplication(c *echo.Context) error {
	if err := a.may(c, roles.Read); err != nil {
		return err
	}
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return problem(http.StatusNotFound, "There is no such application in this team.")
	}
	app, err := a.store.TeamApplication(c.Request().Context(), a.analyst(c), id)
	if err != nil {
		return err
	}
	rec := ApplicationRecord{Application: newApplication(app), Documents: []AppDocument{}, References: []Reference{}}
	// An invitation starts with no answer at all ("{}"): null, as before
	// the applicant saved any.
	if f := applications.Parse(app.Answers); f != (applications.Form{}) {
		rec.Answers = newAnswers(f)
	}
	for _, d := range app.Documents {
		rec.Documents = append(rec.Documents, AppDocument{N: d.N, Name: d.Name, Type: d.Type, Size: d.Size, SHA256: d.SHA256, AddedAt: stamp(d.Added)})
	}
	for _, r := range app.References {
		ref := Reference{Kind: r.Kind, Name: r.Name, Contact: r.Contact, Email: r.Email, Reminders: r.Reminders,
			AskedAt: optionalStamp(r.AskedAt), AnsweredAt: optionalStamp(r.AnsweredAt)}
		rec.References = append(rec.References, ref)
	}
	return c.JSON(http.StatusOK, rec)
}

// newApplication writes a store application for the API.
func newApplication(app store.Application) Application {
	p := Application{ID: strconv.FormatInt(app.ID, 10), Number: app.Number, Source: app.Source, Company: app.Company, Email: app.Email,
		Requested: app.Requested, Status: app.Status, CreatedBy: app.CreatedBy, CreatedAt: stamp(app.CreatedAt), ExpiresAt: stamp(app.ExpiresAt),
		SubmittedAt: optionalStamp(app.SubmittedAt), DecidedAt: optionalStamp(app.DecidedAt), DecidedAmount: app.DecidedAmount,
		URL: "/applications/" + strconv.FormatInt(app.ID, 10)}
	if app.SignedSHA256 != "" {
		p.SignedSHA256 = &app.SignedSHA256
	}
	if app.BusinessID > 0 {
		p.BusinessID = &app.BusinessID
	}
	if app.Account != "" {
		p.Account = &app.Account
	}
	if app.RequestID > 0 {
		id := strconv.FormatInt(app.RequestID, 10)
		p.DecisionID = &id
	}
	if app.DecidedBy != "" {
		p.DecidedBy = &app.DecidedBy
	}
	return p
}

// newAnswers writes the applicant's answers for the API: only the trade
// references named, the bank's when named.
func newAnswers(f applications.Form) *Answers {
	out := &Answers{LegalName: f.LegalName, TradingName: f.TradingName, Registration: f.Registration, Address: f.Address,
		ContactName: f.ContactName, ContactEmail: f.ContactEmail, ContactPhone: f.ContactPhone, YearsInBusiness: f.Years,
		LimitAsked: f.Limit, TermsAsked: f.Terms, MonthlyPurchases: f.Monthly, Trade: []Contact{},
		SignerName: f.SignerName, SignerTitle: f.SignerTitle, Consent: f.Consent}
	for _, t := range f.Trade {
		if t != (applications.Contact{}) {
			out.Trade = append(out.Trade, Contact(t))
		}
	}
	if f.Bank != (applications.Contact{}) {
		b := Contact(f.Bank)
		out.Bank = &b
	}
	return out
}

// optionalStamp is stamp for a time that may not have come yet: null.
func optionalStamp(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := stamp(t)
	return &s
}
