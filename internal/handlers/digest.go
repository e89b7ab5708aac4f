package handlers

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/digest"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// digestPath is the digest's settings page.
const digestPath = "/settings/digest"

// digestFlashes are the one-time words of ?done= after a change.
var digestFlashes = map[string]string{
	"saved":    "Digest settings saved.",
	"verify":   "Digest settings saved. A verification link was sent to the address: follow it to start the digests.",
	"resent":   "A new verification link was sent.",
	"queued":   "A digest is on its way.",
	"already":  "A digest was already sent this minute.",
	"verified": "Address verified.",
}

// digestPage fills the settings page from the stored settings.
func (h *Handler) digestPage(c *echo.Context, set store.DigestSettings) views.DigestSettingsPage {
	a := h.analyst(c)
	p := views.DigestSettingsPage{Email: set.Email, Frequency: set.Frequency, Saved: set.Email, Verified: set.Verified,
		Configured: h.digests.Configured(), OutboxDir: h.digests.OutboxDir(), Outbox: h.digests.Outbox(a), Failure: set.Failure}
	if !set.VerifySent.IsZero() {
		p.VerifySent = views.DateTime(set.VerifySent)
	}
	if !set.LastSent.IsZero() {
		p.LastSent = views.DateTime(set.LastSent)
	}
	if !set.FailedAt.IsZero() {
		p.FailedAt = views.DateTime(set.FailedAt)
	}
	return p
}

func (h *Handler) renderDigestSettings(c *echo.Context, status int, p views.DigestSettingsPage) error {
	p.Base = h.base(c, nil, "E-mail digest", views.NavWorkspace)
	p.Flash = digestFlashes[c.QueryParam("done")]
	return h.render(c, status, templates.DigestSettings(p))
}

// showDigestSettings is /settings/digest.
func (h *Handler) showDigestSettings(c *echo.Context) error {
	set, err := h.digests.Settings(c.Request().Context(), h.analyst(c))
	if err != nil {
		return workspaceError(err)
	}
	return h.renderDigestSettings(c, http.StatusOK, h.digestPage(c, set))
}

// submitDigestSettings saves the address and frequency; bad input is 422
// with the user's values kept.
func (h *Handler) submitDigestSettings(c *echo.Context) error {
	ctx, a := c.Request().Context(), h.analyst(c)
	email, freq := strings.TrimSpace(c.FormValue("email")), c.FormValue("frequency")
	set, err := h.digests.Save(ctx, a, email, freq)
	var ve *store.ValidationError
	if errors.As(err, &ve) {
		old, serr := h.digests.Settings(ctx, a)
		if serr != nil {
			return workspaceError(serr)
		}
		p := h.digestPage(c, old)
		p.Email, p.Frequency = views.Clip(email, store.MaxEmailLen+10), views.Clip(freq, 20)
		if ve.Field == "email" {
			p.EmailError = storeMessage(err)
		} else {
			p.FrequencyError = storeMessage(err)
		}
		showAt(c, digestPath)
		return h.renderDigestSettings(c, http.StatusUnprocessableEntity, p)
	}
	if err != nil {
		return digestError(err)
	}
	h.touched(a)
	if !set.Verified && h.digests.Configured() {
		return redirect(c, digestPath+"?done=verify")
	}
	return redirect(c, digestPath+"?done=saved")
}

// submitDigestVerifyAgain sends the verification link again, at most one
// a minute (429 sooner).
func (h *Handler) submitDigestVerifyAgain(c *echo.Context) error {
	ctx, a := c.Request().Context(), h.analyst(c)
	err := h.digests.RequestVerification(ctx, a)
	if errors.Is(err, store.ErrTooSoon) {
		set, serr := h.digests.Settings(ctx, a)
		if serr != nil {
			return workspaceError(serr)
		}
		p := h.digestPage(c, set)
		p.EmailError = storeMessage(err)
		showAt(c, digestPath)
		return h.renderDigestSettings(c, http.StatusTooManyRequests, p)
	}
	if err != nil {
		return digestError(err)
	}
	return redirect(c, digestPath+"?done=resent")
}

// submitDigestSend queues a digest now.
func (h *Handler) submitDigestSend(c *echo.Context) error {
	queued, err := h.digests.SendNow(c.Request().Context(), h.analyst(c))
	if err != nil {
		return digestError(err)
	}
	if !queued {
		return redirect(c, digestPath+"?done=already")
	}
	return redirect(c, digestPath+"?done=queued")
}

// digestError turns the digest's refusals into pages.
func digestError(err error) error {
	switch {
	case errors.Is(err, digest.ErrNotConfigured):
		return echo.NewHTTPError(http.StatusConflict, "E-mail is not configured on this dashboard (SMTP_URL); nothing was sent.")
	case errors.Is(err, digest.ErrNotVerified):
		return echo.NewHTTPError(http.StatusConflict, "The address is not verified yet: follow the link sent to it first.")
	case errors.Is(err, store.ErrNotFound):
		return echo.NewHTTPError(http.StatusConflict, "Save an e-mail address first.")
	}
	return workspaceError(err)
}

// showDigestPreview is /digest/preview: exactly what the next digest holds.
func (h *Handler) showDigestPreview(c *echo.Context) error {
	content, err := h.digests.Preview(h.wsCtx(c), h.analyst(c))
	if err != nil {
		return accountsError(err)
	}
	p := views.DigestPreviewPage{Body: views.NewDigestBody(content, h.digests.PublicURL(), ""), Lines: content.Lines(), Max: digest.MaxLines}
	p.Base = h.base(c, nil, "Your next digest", views.NavWorkspace)
	return h.render(c, http.StatusOK, templates.DigestPreview(p))
}

// digestLinks are the two links a mail carries, which work without
// signing in: the GET shows a button, the POST makes the change.
var digestLinks = map[string]views.DigestLinkPage{
	digest.KindVerify: {Heading: "Confirm your digest address", Text: "Confirm that digests may be sent to this address.",
		Action: "/digest/verify", Button: "Confirm the address", Done: "Address verified: digests will be sent to it."},
	digest.KindUnsubscribe: {Heading: "Unsubscribe from the digest", Text: "Stop the e-mail digest? You can turn it on again in settings.",
		Action: "/digest/unsubscribe", Button: "Unsubscribe", Done: "Unsubscribed: no more digests will be sent."},
}

// showDigestLink is the page a mail's link opens.
func (h *Handler) showDigestLink(kind string) echo.HandlerFunc {
	return func(c *echo.Context) error {
		p := digestLinks[kind]
		p.Done = ""
		p.Token = c.QueryParam("t")
		status := http.StatusOK
		if err := h.digests.CheckLink(kind, p.Token); err != nil {
			p.Error, p.Token, status = "This link is not valid or has expired. Ask for a new one on the digest settings page.", "", http.StatusBadRequest
		}
		return h.renderDigestLink(c, status, p)
	}
}

// submitDigestLink makes the link's change.
func (h *Handler) submitDigestLink(kind string) echo.HandlerFunc {
	return func(c *echo.Context) error {
		p := digestLinks[kind]
		ctx, token := c.Request().Context(), c.FormValue("t")
		var err error
		if kind == digest.KindVerify {
			err = h.digests.Verify(ctx, token)
		} else {
			err = h.digests.Unsubscribe(ctx, token)
		}
		status := http.StatusOK
		switch {
		case errors.Is(err, digest.ErrBadLink):
			p.Done, p.Error, status = "", "This link is not valid or has expired. Ask for a new one on the digest settings page.", http.StatusBadRequest
		case errors.Is(err, digest.ErrEarlierAddress):
			p.Done, p.Error, status = "", "This link came in a digest sent to an earlier address of yours; the digest now goes to another address, so this link changes nothing. Use the link in a newer digest, or the digest settings page.", http.StatusBadRequest
		case err != nil:
			return workspaceError(err)
		}
		return h.renderDigestLink(c, status, p)
	}
}

func (h *Handler) renderDigestLink(c *echo.Context, status int, p views.DigestLinkPage) error {
	// The token is the page's secret; its address is shown without it.
	showWithout(c, "t")
	p.Base = h.base(c, nil, p.Heading, views.NavWorkspace)
	return h.render(c, status, templates.DigestLink(p))
}
