// Package apply serves the public pages of credit applications: the
// application behind its signed link (/apply/{token}) and a reference's
// one-time form (/reference/{token}). Everything a stranger sends is
// hostile: the pages have no session, their own CSRF token, per-address
// and per-link rate limits (429 with Retry-After), a honeypot field and a
// minimum fill time, and the store bounds drafts and documents per link
// and per team. Documents go in, never out.
package apply

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/applications"
	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/views"
	"creditdash/templates"
)

// MaxBody bounds a post to the public pages: one document and the form.
const MaxBody = 10<<20 + 256<<10

// formLife is how long a rendered form may be sent back.
const formLife = 24 * time.Hour

// csrfCookie carries the random value the form's token is bound to.
const csrfCookie = "apply_csrf"

// Pages serves the public pages.
type Pages struct {
	svc      *applications.Service
	attempts session.Attempts
	assets   views.Assets
	secure   bool
	log      *slog.Logger
	key      []byte
}

// Config is what the pages need; the handlers pass theirs.
type Config struct {
	Service *applications.Service
	// Attempts counts requests per address and per link (shared by the
	// replicas when they share a store).
	Attempts session.Attempts
	Assets   views.Assets
	Secure   bool
	Secret   string
	Log      *slog.Logger
}

// New builds the public pages.
func New(cfg Config) *Pages {
	m := hmac.New(sha256.New, []byte(cfg.Secret))
	m.Write([]byte("creditdash application forms v1"))
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Pages{svc: cfg.Service, attempts: cfg.Attempts, assets: cfg.Assets, secure: cfg.Secure, log: log, key: m.Sum(nil)}
}

// Register adds the public routes, in their own group: the rate limits
// first, then the pages (no session, no sign-in).
func (p *Pages) Register(e *echo.Echo) {
	g := e.Group("", p.limitAddress)
	g.GET("/apply/:token", p.showApplication)
	g.POST("/apply/:token", p.submitApplication, p.limitLink)
	g.GET("/reference/:token", p.showReference)
	g.POST("/reference/:token", p.submitReference, p.limitLink)
}

// place is the address a request counts against: an IPv4 address or an
// IPv6 /64 (what one machine usually holds).
func place(c *echo.Context) string {
	a, err := netip.ParseAddr(c.RealIP())
	if err != nil {
		return "?"
	}
	if a.Is6() && !a.Is4In6() {
		pfx, _ := a.Prefix(64)
		return pfx.String()
	}
	return a.Unmap().String()
}

// limitAddress answers 429 with Retry-After past PerAddress requests a
// minute from one place.
func (p *Pages) limitAddress(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		key := "apply-addr:" + place(c)
		if full, ends := p.attempts.Reserve(c.Request().Context(), []string{key}, []int{p.svc.Settings().PerAddress}, time.Minute); full >= 0 {
			return p.tooMany(c, ends, "Too many requests from your address. Wait a minute and try again.")
		}
		return next(c)
	}
}

// limitLink answers 429 with Retry-After past PerLink posts to one link in
// ten minutes, from wherever they come.
func (p *Pages) limitLink(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		sum := sha256.Sum256([]byte(c.Param("token")))
		key := "apply-link:" + hex.EncodeToString(sum[:12])
		if full, ends := p.attempts.Reserve(c.Request().Context(), []string{key}, []int{p.svc.Settings().PerLink}, 10*time.Minute); full >= 0 {
			return p.tooMany(c, ends, "This link was sent too many times in a short while. Wait a few minutes and try again; what you typed is not lost if you go back.")
		}
		return next(c)
	}
}

// tooMany is the 429 page with when to come back.
func (p *Pages) tooMany(c *echo.Context, ends time.Time, msg string) error {
	secs := int(math.Ceil(time.Until(ends).Seconds()))
	c.Response().Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	return p.notice(c, http.StatusTooManyRequests, "Please wait", msg)
}

// notice renders a page that only says something.
func (p *Pages) notice(c *echo.Context, status int, heading, msg string) error {
	return p.render(c, status, templates.ApplyNotice(views.ApplyNotice{Base: p.base(heading), Heading: heading, Message: msg}))
}

// badLink is the one answer to a link that is not valid, so that no
// stranger learns whether an application, a team or a reference exists.
func (p *Pages) badLink(c *echo.Context) error {
	return p.notice(c, http.StatusNotFound, "This link does not work",
		"The link is not valid, or it has expired. Ask the business that sent it for a new one.")
}

// base is the public pages' frame: no user, no navigation.
func (p *Pages) base(title string) views.Base {
	return views.Base{Title: title, Assets: views.Assets{CSS: p.assets.CSS, Icon: p.assets.Icon}, Now: p.svc.Now()}
}

// render renders into a buffer, then writes status and page; the pages
// of a link are never cached or shown in another site's frame.
func (p *Pages) render(c *echo.Context, status int, page templ.Component) error {
	buf := middleware.GetBuffer()
	defer middleware.PutBuffer(buf)
	if err := page.Render(c.Request().Context(), buf); err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Response().Header().Set("Referrer-Policy", "no-referrer")
	return middleware.WriteHTML(c, status, buf.Bytes())
}

// formToken binds a rendered form to the browser's cookie and the link,
// with the time it was issued (for the minimum fill time): issued.MAC.
func (p *Pages) formToken(c *echo.Context, link string) string {
	ck, err := c.Cookie(csrfCookie)
	value := ""
	if err == nil && len(ck.Value) == 32 {
		value = ck.Value
	} else {
		var b [16]byte
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
		value = hex.EncodeToString(b[:])
		c.SetCookie(&http.Cookie{Name: csrfCookie, Value: value, Path: "/", HttpOnly: true, Secure: p.secure, SameSite: http.SameSiteLaxMode, MaxAge: int(formLife / time.Second)})
	}
	issued := strconv.FormatInt(p.svc.Now().Unix(), 10)
	return issued + "." + p.mac(value, link, issued)
}

func (p *Pages) mac(parts ...string) string {
	m := hmac.New(sha256.New, p.key)
	m.Write([]byte(strings.Join(parts, "\x00")))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// checkForm verifies the posted form's token against the cookie and the
// link, and returns when the form was issued; false for a forged, stale
// or foreign form (a cross-site post carries no cookie of ours).
func (p *Pages) checkForm(c *echo.Context, link string) (time.Time, bool) {
	ck, err := c.Cookie(csrfCookie)
	if err != nil || len(ck.Value) != 32 {
		return time.Time{}, false
	}
	issued, mac, ok := strings.Cut(c.FormValue("_form"), ".")
	if !ok || !hmac.Equal([]byte(mac), []byte(p.mac(ck.Value, link, issued))) {
		return time.Time{}, false
	}
	n, err := strconv.ParseInt(issued, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	at := time.Unix(n, 0)
	if p.svc.Now().Sub(at) > formLife {
		return time.Time{}, false
	}
	return at, true
}

// refuseForm is the answer to a post without a valid form token.
func (p *Pages) refuseForm(c *echo.Context) error {
	return p.notice(c, http.StatusForbidden, "The form has expired",
		"This page was open too long, or it was sent from elsewhere. Go back, reload the page and send it again.")
}

// honeypot tells whether the field people never see was filled: a bot.
func honeypot(c *echo.Context) bool { return c.FormValue("website") != "" }

// detach keeps a store write going when the stranger's connection drops
// halfway, within its own bound.
func detach(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
}

// sizeText is a file's size as people read it.
func sizeText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d kB", max(1, (n+1023)/1024))
}
