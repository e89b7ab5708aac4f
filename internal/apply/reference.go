package apply

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/amount"
	"creditdash/internal/applications"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// openReference reads the reference the route's link names; ok false
// means the page answered.
func (p *Pages) openReference(c *echo.Context) (store.Reference, store.Application, bool, error) {
	l, err := p.svc.Signer().Check(applications.KindReference, c.Param("token"), p.svc.Now())
	if err != nil {
		return store.Reference{}, store.Application{}, false, p.badLink(c)
	}
	r, app, err := p.svc.Store().LinkReference(c.Request().Context(), l.ID, l.Nonce)
	if errors.Is(err, store.ErrNotFound) {
		return r, app, false, p.badLink(c)
	}
	if err != nil {
		return r, app, false, err
	}
	if r.Answered() {
		return r, app, false, p.thanks(c)
	}
	if r.Expired(p.svc.Now()) {
		return r, app, false, p.notice(c, http.StatusGone, "This link has expired", "The reference's link has expired; nothing more is needed.")
	}
	return r, app, true, nil
}

// thanks is the page after a reference answered.
func (p *Pages) thanks(c *echo.Context) error {
	return p.notice(c, http.StatusOK, "Thank you", "Your answers are received. The link does not work again.")
}

// referencePage is the form's view model.
func (p *Pages) referencePage(c *echo.Context, r store.Reference, app store.Application, a views.ReferenceAnswer) views.ReferencePage {
	return views.ReferencePage{Base: p.base("Trade reference"), Action: c.Request().URL.Path, FormToken: p.formToken(c, c.Param("token")),
		Applicant: app.Company, Kind: r.Kind, Years: a.Years, HighCredit: a.HighCredit, DaysBeyond: a.DaysBeyond, Again: a.Again,
		Problems: map[string]string{}}
}

// showReference is a reference's form.
func (p *Pages) showReference(c *echo.Context) error {
	r, app, ok, err := p.openReference(c)
	if !ok || err != nil {
		return err
	}
	return p.render(c, http.StatusOK, templates.ReferenceForm(p.referencePage(c, r, app, views.ReferenceAnswer{})))
}

// submitReference keeps a reference's answers, once.
func (p *Pages) submitReference(c *echo.Context) error {
	r, app, ok, err := p.openReference(c)
	if !ok || err != nil {
		return err
	}
	if _, ok := p.checkForm(c, c.Param("token")); !ok {
		return p.refuseForm(c)
	}
	if honeypot(c) {
		return p.notice(c, http.StatusBadRequest, "The form could not be accepted", "Go back, reload the page and send it again.")
	}
	field := func(name string) string { return clipped(c.FormValue(name), 40) }
	a := views.ReferenceAnswer{Years: field("years"), HighCredit: field("high_credit"), DaysBeyond: field("days_beyond"), Again: field("again")}
	problems := map[string]string{}
	if n, err := strconv.Atoi(a.Years); err != nil || n < 0 || n > 200 {
		problems["years"] = "Give the years as a whole number, such as 3."
	}
	if v, ok, err := amount.Typed(a.HighCredit); err != nil || !ok || v < 0 || store.CheckAmount(v, false) != nil {
		problems["high_credit"] = "Give an amount, such as 25,000."
	}
	if n, err := strconv.Atoi(a.DaysBeyond); err != nil || n < 0 || n > 365 {
		problems["days_beyond"] = "Give the days as a whole number from 0 to 365."
	}
	if a.Again != "yes" && a.Again != "no" {
		problems["again"] = "Choose yes or no."
	}
	if len(problems) > 0 {
		v := p.referencePage(c, r, app, a)
		v.Problems = problems
		return p.render(c, http.StatusUnprocessableEntity, templates.ReferenceForm(v))
	}
	data, _ := json.Marshal(a) // four strings: never fails
	ctx, cancel := detach(c.Request().Context())
	defer cancel()
	if _, err := p.svc.Store().AnswerReference(ctx, r.ID, r.Nonce, string(data), c.RealIP()); err != nil && !errors.Is(err, store.ErrReferenceClosed) {
		return err
	}
	return p.thanks(c)
}

// clipped is a typed answer as one short line.
func clipped(s string, n int) string {
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "")))
	if len([]rune(s)) > n {
		s = string([]rune(s)[:n])
	}
	return s
}
