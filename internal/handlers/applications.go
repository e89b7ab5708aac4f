package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/amount"
	"creditdash/internal/applications"
	"creditdash/internal/roles"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// The team's inbox of credit applications (issue 44): invitations, the
// team's public link, each application with its answers, documents and
// references; matching and deciding are in applications_decide.go. The
// public side is internal/apply.

// noApplications is 404 on a dashboard built without applications.
func (h *Handler) noApplications() error {
	if h.apps == nil {
		return echo.ErrNotFound
	}
	return nil
}

// applicationsPage is the inbox with the invitation form as given.
func (h *Handler) applicationsPage(c *echo.Context, inv views.InviteForm) (views.ApplicationsPage, error) {
	a := h.analyst(c)
	p := views.ApplicationsPage{Invite: inv, Mails: h.apps.Mails(),
		MayChange: h.rolesNow(c).Of(session.Must(c).User).Role.May(roles.ChangeAccounts)}
	p.Base = h.base(c, nil, "Credit applications", views.NavAccounts)
	list, err := h.store.Applications(c.Request().Context(), a)
	if err != nil {
		return p, accountsError(err)
	}
	for _, app := range list {
		row := views.ApplicationRow{Number: strconv.FormatInt(app.Number, 10), Company: app.Company, Email: app.Email,
			Status: appStatus(app, h.now()), Created: views.DateTime(app.CreatedAt), URL: "/applications/" + strconv.FormatInt(app.ID, 10)}
		if row.Company == "" {
			row.Company = "(not named yet)"
		}
		if app.Requested != nil {
			row.Requested = views.Amount(*app.Requested)
		}
		switch app.Status {
		case store.AppSubmitted, store.AppWaiting:
			p.Waiting = append(p.Waiting, row)
		case store.AppApproved, store.AppDeclined, store.AppRevoked:
			p.Decided = append(p.Decided, row)
		default:
			p.New = append(p.New, row)
		}
	}
	nonce, on, err := h.store.ApplicationLink(c.Request().Context(), a)
	if err != nil {
		return p, accountsError(err)
	}
	p.TeamLinkState = "off"
	if on {
		p.TeamLink, p.TeamLinkState = h.apps.TeamURL(a.Service, nonce), "on"
	}
	return p, nil
}

// appStatus is an application's status as the inbox says it.
func appStatus(app store.Application, now time.Time) string {
	switch {
	case (app.Status == store.AppInvited || app.Status == store.AppDraft) && !app.Open(now):
		return "expired"
	case app.Status == store.AppWaiting:
		return "waiting for a second manager"
	}
	return app.Status
}

// showApplications is /applications: new, waiting and decided.
func (h *Handler) showApplications(c *echo.Context) error {
	if err := h.noApplications(); err != nil {
		return err
	}
	p, err := h.applicationsPage(c, views.InviteForm{})
	if err != nil {
		return err
	}
	if id, err := strconv.ParseInt(c.QueryParam("invited"), 10, 64); err == nil {
		if app, err := h.store.TeamApplication(c.Request().Context(), h.analyst(c), id); err == nil && app.Open(h.now()) {
			p.InvitedLink, p.InvitedMailed = h.apps.ApplyURL(app), c.QueryParam("mailed") == "1"
		}
	}
	return h.render(c, http.StatusOK, templates.Applications(p))
}

// exportApplicationsCSV is /applications.csv: the inbox's applications,
// one a row, every text cell marked against spreadsheet formulas.
func (h *Handler) exportApplicationsCSV(c *echo.Context) error {
	if err := h.noApplications(); err != nil {
		return err
	}
	list, err := h.store.Applications(c.Request().Context(), h.analyst(c))
	if err != nil {
		return accountsError(err)
	}
	now := h.now()
	return h.sendCSV(c, "applications", views.ApplicationsCSVHeader, func(yield func([]string) bool) {
		for _, app := range list {
			if !yield(views.ApplicationCSVRecord(app, appStatus(app, now))) {
				return
			}
		}
	})
}

// submitInvite invites a prospective customer: the link is mailed when
// e-mail is configured and shown to copy either way.
func (h *Handler) submitInvite(c *echo.Context) error {
	if err := h.noApplications(); err != nil {
		return err
	}
	inv := views.InviteForm{Company: views.Clip(strings.TrimSpace(c.FormValue("company")), 220),
		Email: views.Clip(strings.TrimSpace(c.FormValue("email")), 260), Amount: views.Clip(strings.TrimSpace(c.FormValue("amount")), 40),
		Problems: map[string]string{}}
	spec := store.Invitation{Company: inv.Company, Email: inv.Email}
	switch v, ok, err := amount.Typed(inv.Amount); {
	case err != nil:
		inv.Problems["amount"] = sentence(err.Error())
	case ok && store.CheckAmount(v, false) != nil:
		inv.Problems["amount"] = "Give an amount from 0 to 10,000,000,000,000."
	case ok:
		spec.Requested = &v
	}
	if inv.Company == "" {
		inv.Problems["company"] = "Name the company invited."
	}
	if !applications.ValidEmail(inv.Email) {
		inv.Problems["email"] = "Give the contact's e-mail address, such as buyer@example.com."
	}
	var app store.Application
	var mailed bool
	var err error
	if len(inv.Problems) == 0 {
		app, mailed, err = h.apps.Invite(c.Request().Context(), h.analyst(c), spec)
		var ve *store.ValidationError
		switch {
		case errors.As(err, &ve):
			inv.Problems[ve.Field] = sentence(ve.Message)
		case errors.Is(err, store.ErrApplicationsFull):
			inv.Error = storeMessage(err)
		case err != nil:
			return accountsError(err)
		}
	}
	if len(inv.Problems) > 0 || inv.Error != "" {
		p, err := h.applicationsPage(c, inv)
		if err != nil {
			return err
		}
		return h.render(c, http.StatusUnprocessableEntity, templates.Applications(p))
	}
	m := "0"
	if mailed {
		m = "1"
	}
	return redirect(c, fmt.Sprintf("/applications?invited=%d&mailed=%s#invited", app.ID, m))
}

// submitApplicationLink switches the team's public link on or off.
func (h *Handler) submitApplicationLink(c *echo.Context) error {
	if err := h.noApplications(); err != nil {
		return err
	}
	on := c.FormValue("state") == "on"
	if _, err := h.store.SetApplicationLink(c.Request().Context(), h.analyst(c), on); err != nil {
		return accountsError(err)
	}
	return redirect(c, "/applications#team-link")
}

// teamApplication is the route's application of the team.
func (h *Handler) teamApplication(c *echo.Context) (store.Application, error) {
	if err := h.noApplications(); err != nil {
		return store.Application{}, err
	}
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return store.Application{}, echo.ErrNotFound
	}
	app, err := h.store.TeamApplication(c.Request().Context(), h.analyst(c), id)
	if err != nil {
		return app, decisionsError(err)
	}
	return app, nil
}

// exportApplicationDocument sends one of an application's files to the
// team only, always as an attachment of the type its content was checked
// to be, never sniffed again by the browser.
func (h *Handler) exportApplicationDocument(c *echo.Context) error {
	app, err := h.teamApplication(c)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil {
		return echo.ErrNotFound
	}
	d, err := h.store.ApplicationDocument(c.Request().Context(), h.analyst(c), app.ID, n)
	if err != nil {
		return decisionsError(err)
	}
	ext := map[string]string{"application/pdf": ".pdf", "image/png": ".png", "image/jpeg": ".jpg"}[d.Type]
	name := fmt.Sprintf("application-%d-document-%d%s", app.Number, d.N, ext)
	hd := c.Response().Header()
	hd.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cache-Control", "private, no-store")
	hd.Set("Content-Security-Policy", "sandbox; default-src 'none'")
	return c.Blob(http.StatusOK, d.Type, d.Data)
}

// applicationRecord is what an application holds for the team's eyes, as
// its page and the credit memo show it: the answers signed, the documents
// (opened through the team's route) and the references with their
// answers or how far asking them went.
func (h *Handler) applicationRecord(app store.Application) ([]views.AnswerRow, []views.ApplyDocument, []views.ReferenceRow) {
	var answers []views.AnswerRow
	f := applications.Parse(app.Answers)
	for _, a := range f.Answers() {
		answers = append(answers, views.AnswerRow{Label: a.Label, Value: a.Value})
	}
	var docs []views.ApplyDocument
	for _, d := range app.Documents {
		docs = append(docs, views.ApplyDocument{N: d.N, Name: d.Name, Type: applications.DocumentLabel(d.Type),
			Size: strconv.FormatInt(d.Size, 10) + " bytes", Hash: d.SHA256, URL: fmt.Sprintf("/applications/%d/documents/%d", app.ID, d.N)})
	}
	var refs []views.ReferenceRow
	for _, r := range app.References {
		row := views.ReferenceRow{Kind: r.Kind, Name: r.Name, Contact: r.Contact, Email: r.Email, Status: "asked " + views.DateTime(r.AskedAt)}
		switch {
		case r.Answered():
			var a views.ReferenceAnswer
			if json.Unmarshal([]byte(r.Answer), &a) == nil {
				row.Answer = &a
			}
			row.Status = "answered " + views.DateTime(r.AnsweredAt)
		case r.Expired(h.now()):
			row.Status = "not answered; its link expired " + views.DateTime(r.ExpiresAt)
		case r.Reminders > 0:
			row.Status += ", reminded " + views.Plural(r.Reminders, "time")
		}
		refs = append(refs, row)
	}
	return answers, docs, refs
}

// memoApplication is the application a limit request decides, for its
// credit memo; nil when the request came from elsewhere.
func (h *Handler) memoApplication(c *echo.Context, request int64) (*views.MemoApplication, error) {
	app, err := h.store.ApplicationForRequest(c.Request().Context(), h.analyst(c), request)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, decisionsError(err)
	}
	m := &views.MemoApplication{Number: strconv.FormatInt(app.Number, 10), Company: app.Company,
		URL: "/applications/" + strconv.FormatInt(app.ID, 10), SignedFrom: app.SubmittedFrom, SignedHash: app.SignedSHA256}
	if !app.SubmittedAt.IsZero() {
		m.Submitted = views.DateTime(app.SubmittedAt)
	}
	m.Answers, m.Documents, m.References = h.applicationRecord(app)
	return m, nil
}
