package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v5"

	"creditdash/internal/applications"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// target is what an /apply/ link names: one application, or the team's
// public link (app zero until its first post makes one).
type target struct {
	link applications.Link
	app  store.Application
	team bool
}

// open reads the link of the route: ok false means the page answered
// (a link that does not work).
func (p *Pages) open(c *echo.Context) (target, bool, error) {
	token := c.Param("token")
	now := p.svc.Now()
	if l, err := p.svc.Signer().Check(applications.KindApplication, token, now); err == nil {
		app, err := p.svc.Store().LinkApplication(c.Request().Context(), l.ID, l.Nonce)
		if errors.Is(err, store.ErrNotFound) {
			return target{}, false, p.badLink(c)
		}
		return target{link: l, app: app}, err == nil, err
	}
	if l, err := p.svc.Signer().Check(applications.KindTeam, token, now); err == nil {
		on, err := p.svc.Store().PublicLinkOn(c.Request().Context(), l.Team, l.Nonce)
		if err != nil {
			return target{}, false, err
		}
		if on {
			return target{link: l, team: true}, true, nil
		}
	}
	return target{}, false, p.badLink(c)
}

// closed answers for an application that no longer takes answers: received
// once submitted, else its link no longer works.
func (p *Pages) closed(c *echo.Context, app store.Application) error {
	switch app.Status {
	case store.AppInvited, store.AppDraft:
		return p.notice(c, http.StatusGone, "This link has expired", "The application's link has expired. Ask the business that sent it for a new one.")
	case store.AppRevoked:
		return p.notice(c, http.StatusGone, "This link no longer works", "The business that sent this link has withdrawn it.")
	}
	return p.notice(c, http.StatusOK, "Application received",
		"Your application "+strconv.FormatInt(app.Number, 10)+" was received on "+app.SubmittedAt.UTC().Format("2 January 2006")+
			". It can no longer be changed; you will hear the decision by e-mail.")
}

// showApplication is the form behind a link, with the draft as saved.
func (p *Pages) showApplication(c *echo.Context) error {
	t, ok, err := p.open(c)
	if !ok || err != nil {
		return err
	}
	if !t.team && !t.app.Open(p.svc.Now()) {
		return p.closed(c, t.app)
	}
	v := p.page(c, t, applications.Parse(t.app.Answers))
	v.Saved = c.QueryParam("saved") == "1"
	if c.QueryParam("new") == "1" && !t.team {
		v.Keep = p.svc.ApplyURL(t.app)
	}
	return p.render(c, http.StatusOK, templates.ApplyForm(v))
}

// page is the form's view model for the target and the answers.
func (p *Pages) page(c *echo.Context, t target, f applications.Form) views.ApplyPage {
	token := c.Param("token")
	if t.team && t.app.ID != 0 {
		// The team's link made this application: the form goes on
		// behind its own link, shown to keep.
		token = p.svc.Signer().ApplicationLink(t.app)
	}
	v := views.ApplyPage{Base: p.base("Credit application"), Action: "/apply/" + token, FormToken: p.formToken(c, token),
		Values: f.Values(), Consent: f.Consent, Chosen: f.Terms, Problems: map[string]string{}, Terms: applications.Terms,
		ConsentText: applications.ConsentText, MoreDocuments: len(t.app.Documents) < store.MaxDocuments}
	if t.team && t.app.ID != 0 {
		v.Keep = p.svc.ApplyURL(t.app)
	}
	if t.app.ID != 0 {
		v.Company = t.app.Company
		v.Expires = t.app.ExpiresAt.UTC().Format("2 January 2006")
	}
	for _, d := range t.app.Documents {
		v.Documents = append(v.Documents, views.ApplyDocument{N: d.N, Name: d.Name, Type: applications.DocumentLabel(d.Type), Size: sizeText(d.Size)})
	}
	return v
}

// again re-renders the form with what was typed and why it was refused.
func (p *Pages) again(c *echo.Context, t target, f applications.Form, problems applications.Problems, msg string) error {
	v := p.page(c, t, f)
	v.Problems, v.Error = problems, msg
	if msg == "" {
		v.Error = "Some answers need a look: each is marked below. Nothing you typed is lost."
	}
	return p.render(c, http.StatusUnprocessableEntity, templates.ApplyForm(v))
}

// submitApplication saves the draft (with one document added or some
// removed) or, with action=submit, signs and sends it.
func (p *Pages) submitApplication(c *echo.Context) error {
	if err := c.Request().ParseMultipartForm(1 << 20); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return p.notice(c, http.StatusRequestEntityTooLarge, "The file is too large",
				"A document may be at most 10 MB. Go back, choose a smaller file and save again.")
		}
		return p.notice(c, http.StatusBadRequest, "The form could not be read", "Go back, reload the page and send it again.")
	}
	t, ok, err := p.open(c)
	if !ok || err != nil {
		return err
	}
	issued, ok := p.checkForm(c, c.Param("token"))
	if !ok {
		return p.refuseForm(c)
	}
	if honeypot(c) {
		p.log.Info("apply: honeypot filled", "path_kind", "apply")
		return p.notice(c, http.StatusBadRequest, "The form could not be accepted", "Go back, reload the page and send it again.")
	}
	f := applications.Read(c.FormValue)
	ctx, cancel := detach(c.Request().Context())
	defer cancel()
	if t.team {
		if problems := f.CheckDraft(); len(problems) > 0 {
			return p.again(c, t, f, problems, "")
		}
		t.app, err = p.svc.StartPublic(ctx, t.link)
		switch {
		case errors.Is(err, store.ErrApplicationsFull):
			return p.notice(c, http.StatusServiceUnavailable, "Not taking applications right now",
				"Too many applications are waiting to be finished. Try again later.")
		case errors.Is(err, store.ErrNotFound):
			return p.badLink(c)
		case err != nil:
			return err
		}
	}
	if !t.app.Open(p.svc.Now()) {
		return p.closed(c, t.app)
	}
	id, nonce := t.app.ID, t.app.Nonce
	problems := f.CheckDraft()
	submit := c.FormValue("action") == "submit"
	// A draft saved as often as a link may is sent without one more save
	// (the submission keeps the answers); only saving it again is refused.
	spent := t.app.Saves >= store.MaxApplicationSaves
	if spent && !submit {
		return p.again(c, t, f, problems, fmt.Sprintf("This draft was saved %d times, as often as a link may, so it cannot be saved again. "+
			"Your answers are below as you typed them: complete them and submit the application.", store.MaxApplicationSaves))
	}
	for _, raw := range c.Request().Form["remove"] {
		if n, err := strconv.Atoi(raw); err == nil {
			if err := p.svc.Store().RemoveDocument(ctx, id, nonce, n); err != nil {
				return p.storeError(c, t, f, err)
			}
		}
	}
	if msg := p.addDocument(c, id, nonce); msg != "" {
		problems["document"] = msg
	}
	if !spent && (len(problems) == 0 || problems["document"] != "" && len(problems) == 1) {
		if t.app, err = p.svc.Store().SaveAnswers(ctx, id, nonce, f.JSON()); err != nil {
			return p.storeError(c, t, f, err)
		}
	}
	if submit && len(problems) == 0 {
		if wait := p.svc.Settings().MinFill; wait > 0 && p.svc.Now().Sub(issued) < wait {
			return p.again(c, t, f, problems, "Take a moment to check your answers, then send again. Your draft is saved.")
		}
		problems = f.CheckSubmit()
	}
	if len(problems) > 0 {
		return p.again(c, t, f, problems, "")
	}
	dest := c.Request().URL.Path
	if t.team {
		dest = "/apply/" + p.svc.Signer().ApplicationLink(t.app)
	}
	if !submit {
		q := "?saved=1"
		if t.team {
			q += "&new=1"
		}
		return c.Redirect(http.StatusSeeOther, dest+q)
	}
	now, from := p.svc.Now(), c.RealIP()
	sig := applications.Hash(applications.Statement(t.app.Number, f, t.app.Documents, now, from))
	app, err := p.svc.Store().SubmitApplication(ctx, id, nonce, store.Submission{Answers: f.JSON(), Company: f.LegalName,
		Email: f.ContactEmail, From: from, SignedSHA256: sig, Signer: f.SignerName + ", " + f.SignerTitle,
		References: f.References(), ReferenceLife: p.svc.Settings().ReferenceLife})
	if err != nil {
		return p.storeError(c, t, f, err)
	}
	p.svc.Submitted(ctx, app)
	return c.Redirect(http.StatusSeeOther, dest)
}

// addDocument keeps the posted file, if any; the answer is the problem to
// show ("" when kept or none was sent).
func (p *Pages) addDocument(c *echo.Context, id int64, nonce string) string {
	fh, err := c.FormFile("document")
	if err != nil || fh.Size == 0 {
		return ""
	}
	if fh.Size > store.MaxDocumentBytes {
		return "The file is over 10 MB; choose a smaller one."
	}
	data, err := readFile(fh)
	if err != nil {
		return "The file could not be read; choose it again."
	}
	kind, ok := applications.DocumentType(data)
	if !ok {
		return "Only PDF, PNG or JPEG files are taken, checked by what is in them; this file is not one of those."
	}
	sum := sha256.Sum256(data)
	ctx, cancel := detach(c.Request().Context())
	defer cancel()
	_, err = p.svc.Store().AddDocument(ctx, id, nonce, store.Document{Name: fh.Filename, Type: kind, SHA256: hex.EncodeToString(sum[:]), Data: data})
	var ve *store.ValidationError
	switch {
	case errors.As(err, &ve) && ve.Field == "document":
		return "An application keeps at most three documents; tick one to remove first."
	case errors.As(err, &ve):
		return "The file's name is not one we can keep; rename it and try again."
	case errors.Is(err, store.ErrApplicationsFull):
		return "We cannot take more documents right now; send the application without it, or try later."
	case err != nil:
		p.log.Error("apply: keeping a document", "err", err)
		return "The file could not be kept; try again."
	}
	return ""
}

// readFile reads an uploaded file, at most a byte past the bound.
func readFile(fh *multipart.FileHeader) ([]byte, error) {
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, store.MaxDocumentBytes+1))
}

// storeError turns the store's refusals into the form's answers.
func (p *Pages) storeError(c *echo.Context, t target, f applications.Form, err error) error {
	var ve *store.ValidationError
	switch {
	case errors.Is(err, store.ErrNotFound):
		return p.badLink(c)
	case errors.Is(err, store.ErrApplicationClosed):
		app, rerr := p.svc.Store().LinkApplication(c.Request().Context(), t.app.ID, t.app.Nonce)
		if rerr != nil {
			return p.badLink(c)
		}
		return p.closed(c, app)
	case errors.As(err, &ve):
		return p.again(c, t, f, applications.Problems{}, "The application could not be saved: "+ve.Message+".")
	}
	return err
}
