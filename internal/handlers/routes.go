package handlers

import (
	"net/http"

	"github.com/labstack/echo/v5"
	"github.com/labstack/echo/v5/middleware"
)

// Routes builds the router with every route and the middleware order, stated
// once: request id and log (outermost, so every response is logged with its
// final status), panic recovery, security headers, session, CSRF, then
// compression of pages.
func (h *Handler) Routes() *echo.Echo {
	e := echo.New()
	e.Logger = h.log
	e.HTTPErrorHandler = h.handleError

	e.Use(h.logRequests)
	e.Use(middleware.Recover())
	e.Use(h.secureHeaders)

	// Public, without session or CSRF: health and static files.
	e.GET("/healthz", h.showHealth)
	e.GET("/readyz", h.showReady)
	e.GET("/static/*", echo.WrapHandler(h.assets))
	// Browsers ask for /favicon.ico on their own; point them at ours.
	e.GET("/favicon.ico", func(c *echo.Context) error {
		return c.Redirect(http.StatusMovedPermanently, h.urls.Icon)
	})

	// Pages compress themselves (see render); nothing else is worth it, and
	// a streamed download must never be buffered by a compressor.
	pages := e.Group("", h.loadSession, h.csrf())
	pages.GET("/login", h.showLogin)
	pages.POST("/login", h.submitLogin)
	pages.POST("/logout", h.submitLogout)

	app := pages.Group("", h.requireSignIn, h.trackPage)
	app.GET("/", h.showHome)
	app.GET("/open", h.openBusiness)
	h.portfolioRoutes(app)
	h.businessRoutes(app)
	return e
}

// csrf checks every state-changing request: browsers that send
// Sec-Fetch-Site are checked by it, others by the token in the form.
func (h *Handler) csrf() echo.MiddlewareFunc {
	return middleware.CSRFWithConfig(middleware.CSRFConfig{
		TokenLookup:    "form:" + csrfField,
		ContextKey:     ctxCSRF,
		CookieName:     "creditdash_csrf",
		CookiePath:     "/",
		CookieHTTPOnly: true,
		CookieSecure:   h.secure,
		CookieSameSite: http.SameSiteLaxMode,
		ErrorHandler: func(c *echo.Context, err error) error {
			return echo.NewHTTPError(http.StatusForbidden, "invalid or missing CSRF token")
		},
	})
}

// csrfField is the name of the hidden form field carrying the token.
const csrfField = "_csrf"
