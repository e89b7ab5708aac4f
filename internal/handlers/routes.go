package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v5"
	echomw "github.com/labstack/echo/v5/middleware"

	"creditdash/internal/api"
	"creditdash/internal/digest"
	"creditdash/internal/middleware"
	"creditdash/internal/roles"
	"creditdash/internal/session"
	"creditdash/internal/views"
)

// Routes builds the router with every route, written out, and the
// middleware order, stated once: request id and log (outermost, so every
// response is logged with its final status), panic recovery, security
// headers, request size limits; then, for pages, session and CSRF; then the
// sign-in guard, the cross-site guard (middleware.go) and the role guard
// (roles.go). HEAD is answered for every GET route.
func (h *Handler) Routes() *echo.Echo {
	e := echo.NewWithConfig(echo.Config{
		Router: echo.NewRouter(echo.RouterConfig{AutoHandleHEAD: true}),
	})
	e.Logger = h.log
	e.IPExtractor = h.clientAddr
	e.HTTPErrorHandler = h.handleError

	e.Use(middleware.RequestLog{Log: h.log, Trusted: h.trusted, HandleError: h.handleError, InFlight: &h.inFlight}.Middleware)
	e.Use(h.meter.Pages())
	e.Use(echomw.Recover())
	e.Use(middleware.SecureHeaders(h.secure, h.writeTimeout))
	e.Use(h.limitRequests)

	// Public, without session or CSRF: health, static files, robots.
	e.GET("/healthz", h.showHealth)
	e.GET("/readyz", h.showReady)
	e.GET("/robots.txt", showRobots)
	e.GET("/static/*", echo.WrapHandler(h.assets))
	e.GET("/favicon.ico", h.showFavicon)

	// The API (issue 46): its own routes under /api/v1 with personal
	// access tokens, no session and no CSRF token (a bearer token is no
	// cookie a browser sends by itself); its errors are problems
	// (handleError hands them to it).
	api.Register(e, api.Config{Store: h.store, Service: h.service, Member: func(ctx context.Context, user string) roles.Assignment { return h.members.Roles(ctx).Of(user) }, Now: h.now, Log: h.log})

	// Credit applications' public pages (internal/apply): no session, their
	// own CSRF token and rate limits.
	if h.apply != nil {
		h.apply.Register(e)
	}

	// Pages compress themselves (see render); a streamed download is never
	// buffered by a compressor.
	// An upload takes its import's place before its body is read (see
	// takeImportTurn).
	pages := e.Group("", session.Load(h.sessionMemo, h.signOuts), h.takeImportTurn, session.CSRF(h.secure))
	pages.GET("/login", h.showLogin)
	pages.POST("/login", h.submitLogin)
	pages.GET("/login/verify", h.showVerify)
	pages.POST("/login/verify", h.submitVerify)
	pages.POST("/logout", h.submitLogout)

	app := pages.Group("", h.requireSignIn, h.sameSitePages(), h.guardRoles, h.sendKeptFirst(), h.turns.Admit)
	// The team's pages that go through all of its accounts: an analyst's
	// run one at a time, waiting in that analyst's queue before they take
	// a page's turn (oneTeamPage, middleware.go).
	team := pages.Group("", h.requireSignIn, h.sameSitePages(), h.guardRoles, h.sendKeptFirst(), h.oneTeamPage, h.turns.Admit)
	app.GET("/", h.showHome)
	app.GET("/open", h.openBusiness)
	app.POST("/refresh", h.submitRefresh)

	app.GET("/businesses/:id", byID(h.showTab(views.TabOverview)))
	app.GET("/businesses/:id/payments", byID(h.showTab(views.TabPayments)))
	app.GET("/businesses/:id/financials", byID(h.showTab(views.TabFinancials)))
	app.GET("/businesses/:id/officers", byID(h.showTab(views.TabOfficers)))
	app.GET("/customers/:customerId", byCustomerID(h.showTab(views.TabOverview)))
	app.GET("/customers/:customerId/payments", byCustomerID(h.showTab(views.TabPayments)))
	app.GET("/customers/:customerId/financials", byCustomerID(h.showTab(views.TabFinancials)))
	app.GET("/customers/:customerId/officers", byCustomerID(h.showTab(views.TabOfficers)))
	app.GET("/suppliers/:supplierId", bySupplierID(h.showTab(views.TabOverview)))
	app.GET("/suppliers/:supplierId/payments", bySupplierID(h.showTab(views.TabPayments)))
	app.GET("/suppliers/:supplierId/financials", bySupplierID(h.showTab(views.TabFinancials)))
	app.GET("/suppliers/:supplierId/officers", bySupplierID(h.showTab(views.TabOfficers)))

	// Compare and the portfolio's signals (issue 15).
	app.GET("/compare", h.showCompare)
	app.GET("/portfolio/quadrant", h.showQuadrant)
	app.GET("/portfolio/stress", h.showStress)

	app.GET("/portfolio", h.showPortfolio)
	app.GET("/portfolio/folders/:folderId", h.showFolder)
	app.GET("/portfolio/scores", h.showScores)
	app.GET("/news/industry", h.showIndustryNews)
	app.GET(tradeProviderPath, h.showTradeProvider)
	app.POST(tradeProviderPath, h.submitTradeProvider)

	// The analyst's workspace (internal/store): every change a POST that
	// redirects; ids of another analyst's rows are 404.
	app.GET("/watchlist", h.showWatchlist)
	app.POST("/businesses/:id/watch", h.submitWatch)
	app.POST("/businesses/:id/unwatch", h.submitUnwatch)
	app.POST("/businesses/:id/notes", h.submitNote)
	app.POST("/notes/:id/edit", h.submitNoteEdit)
	app.POST("/notes/:id/delete", h.submitNoteDelete)
	app.GET("/alerts", h.showAlerts)
	app.POST("/alerts/rules", h.submitRule)
	app.POST("/alerts/rules/:id/delete", h.submitDeleteRule)
	app.POST("/alerts/:id/read", h.submitAlertRead)
	app.POST("/alerts/read-all", h.submitAllAlertsRead)
	app.POST("/businesses/:id/snapshots", h.submitSnapshot)
	app.GET("/snapshots", h.showSnapshots)
	app.GET("/snapshots/:id", h.showSnapshot)
	app.GET("/snapshots/:id/compare", h.showSnapshotCompare)
	app.POST("/snapshots/:id/delete", h.submitDeleteSnapshot)
	app.GET("/settings/workspace", h.showWorkspaceSettings)
	app.POST("/settings/workspace", h.submitDeleteWorkspace)
	// Personal access tokens for /api/v1 (issue 46.2): the secret is
	// shown on the POST's answer only.
	app.GET(views.TokensPath, h.showTokens)
	app.POST(views.TokensPath, h.submitToken)
	app.POST(views.TokensPath+"/:id/revoke", h.submitRevokeToken)
	app.GET(views.TokensPath+"/:id/revoke", goTo(views.TokensPath))

	// The team's audit trail (issue 27): everyone signed in reads it, and
	// nothing here changes it. The download streams as long as the
	// browser reads, so like the other downloads it takes no page's turn.
	app.GET("/audit", h.showAudit)
	team.GET("/audit/verify", h.showAuditVerify)
	auditFiles := pages.Group("", h.requireSignIn, h.guardRoles)
	auditFiles.GET("/audit.csv", h.exportAudit)
	// The team's accounts, limits and exposure (issue 26): shared by every
	// analyst of the deployment; every change a CSRF-checked POST. A ledger
	// file may be posted to /accounts/import only (see limitRequests).
	team.GET("/accounts", h.showAccounts)
	app.POST("/accounts/columns", h.submitAccountColumns)
	app.GET("/accounts/columns", goTo("/accounts"))
	app.GET(importPath, h.showAccountsImport)
	app.POST(importPath, h.submitAccountsImport)
	app.POST("/accounts/import/confirm", h.submitAccountsImportConfirm)
	app.GET("/accounts/import/confirm", goTo(importPath))
	app.POST("/accounts/scores", h.submitAccountScores)
	app.GET("/accounts/scores", goTo("/accounts"))
	app.POST("/accounts/link", h.submitAccountLinks)
	app.POST(lookupsPath, h.submitNameLookups)
	app.GET(lookupsPath, goTo(importPath+"#lookups"))
	app.GET("/accounts/link", goTo("/accounts"))
	// The account's record (issue 43): one added by hand, the ERP's limits
	// requested through the usual rules, a replaced ledger put back.
	app.GET("/accounts/new", h.showNewAccount)
	app.POST("/accounts/new", h.submitNewAccount)
	app.POST("/accounts/erp-limits", h.submitERPLimits)
	app.GET("/accounts/erp-limits", goTo("/accounts?erp=1"))
	app.POST("/accounts/ledgers/versions/:id/restore", h.submitRestoreVersion)
	app.GET("/accounts/ledgers/versions/:id/restore", goTo(importPath+"#versions"))
	app.GET("/accounts/:account/link", h.showAccountLink)
	app.POST("/accounts/:account/link", h.submitAccountLink)
	app.GET("/businesses/:id/limit", byID(h.showLimit))
	app.POST("/businesses/:id/limit", byID(h.submitLimit))
	app.GET("/customers/:customerId/limit", byCustomerID(h.showLimit))
	app.POST("/customers/:customerId/limit", byCustomerID(h.submitLimit))
	app.GET("/suppliers/:supplierId/limit", bySupplierID(h.showLimit))
	app.POST("/suppliers/:supplierId/limit", bySupplierID(h.submitLimit))
	team.GET("/portfolio/exposure", h.showExposure)
	accountFiles := pages.Group("", h.requireSignIn, h.boundHeavy)
	accountFiles.GET("/accounts.csv", h.exportAccountsCSV)
	accountFiles.GET("/accounts.xlsx", h.exportAccountsXLSX)
	accountFiles.GET("/portfolio/exposure.csv", h.exportExposureCSV)
	// Limits and holds back to the ERP (issue 46.4, limits_export.go): the
	// worksheet, a preview of each system's file (records nothing), the
	// export recorded by a POST that answers the file, a recorded file
	// again, and the over-limit threshold (a manager's).
	app.GET(views.ERPExportPath, h.showLimitsExport)
	accountFiles.GET(views.ERPExportPath+".csv", h.previewLimitsExport)
	app.POST(views.ERPExportPath+".csv", h.submitLimitsExport)
	accountFiles.GET("/limits/exports/:id/file", h.exportERPFile)
	app.POST("/limits/threshold", h.submitERPThreshold)
	app.GET("/limits/threshold", goTo(views.ERPExportPath+"#threshold"))
	// Validation on the team's own history (issue 45): read-only; in demo
	// mode the import page's button brings 36 month-ends of history.
	app.POST(demoHistoryPath, h.submitDemoHistory)
	app.GET(demoHistoryPath, goTo(importPath))
	app.GET(validationPath, h.showPolicyValidation)
	// Defaults named as such (issue 45): a filing any page learned; a
	// manager clears one (a decision, with a note) and sets the loss given
	// default.
	// The team's credit policy (issue 45): versions saved by a manager,
	// put in force by another.
	app.GET(views.PolicyPath, h.showPolicy)
	app.POST(views.PolicyPath+"/versions", h.submitPolicyVersion)
	app.GET(views.PolicyPath+"/versions", goTo(views.PolicyPath))
	app.POST(views.PolicyPath+"/versions/:id/activate", h.submitPolicyActivate)
	app.GET(views.PolicyPath+"/versions/:id/activate", goTo(views.PolicyPath))
	app.GET(views.DefaultsPath, h.showDefaults)
	app.POST(views.DefaultsPath+"/:id/clear", h.submitClearDefault)
	app.GET(views.DefaultsPath+"/:id/clear", goTo(views.DefaultsPath))
	app.POST(views.DefaultsPath+"/lgd", h.submitLGD)
	app.GET(views.DefaultsPath+"/lgd", goTo(views.DefaultsPath))
	accountFiles.GET(validationPath+".csv", h.exportValidation(false))
	accountFiles.GET(validationPath+"/scores.csv", h.exportValidation(true))
	// An analyst's day (issue 31): rules changed in place.
	app.GET("/alerts/rules/:id/edit", h.showRuleEdit)
	app.POST("/alerts/rules/:id/edit", h.submitRuleEdit)
	// Early warning (issue 28): back-test a rule over the portfolio's
	// histories before turning it on; the team's supplier category
	// for divergence rules ("paying suppliers like you last").
	app.GET("/alerts/backtest", h.showBacktest)
	app.GET("/alerts/backtest.csv", h.exportBacktest)
	app.GET("/settings/supplier-category", h.showSupplierCategory)
	app.POST("/settings/supplier-category", h.submitSupplierCategory)

	// Credit decisions (issue 27): limit requests with their evidence,
	// approved at once within the requester's authority or by another
	// manager within theirs; every step a CSRF-checked POST, logged.
	app.POST("/businesses/:id/limit-requests", h.submitLimitRequest)
	app.GET("/businesses/:id/limit-requests", byID(toReport("/limit")))
	app.GET("/decisions", h.showDecisions)
	app.POST("/decisions/outcomes/seen", h.submitOutcomesSeen)
	app.GET("/decisions/:id", h.showDecision)
	app.GET("/decisions/:id/evidence/:tab", h.showEvidence)
	app.GET("/decisions/:id/memo", h.showDecisionMemo)
	app.POST("/decisions/:id/approve", h.submitApprove)
	app.POST("/decisions/:id/decline", h.submitDecline)
	app.POST("/decisions/:id/withdraw", h.submitWithdraw)
	app.GET("/decisions/:id/approve", toRow("/decisions/", ""))
	app.GET("/decisions/:id/decline", toRow("/decisions/", ""))
	app.GET("/decisions/:id/withdraw", toRow("/decisions/", ""))
	// The team on a page (issue 46.5): everyone reads it; admins change
	// members, and a raise waits for a second admin (team.go).
	app.GET("/team", h.showTeam)
	app.POST("/team/members", h.submitTeamMember)
	app.POST("/team/changes/:id/approve", h.submitTeamApprove)
	app.POST("/team/changes/:id/decline", h.submitTeamDecline)
	team.GET("/reviews", h.showReviews)
	app.GET("/accounts/:account/review", h.showReview)
	app.POST("/accounts/:account/review", h.submitReview)

	// The refresh plan (issue 28): the team's linked businesses ranked by
	// what refreshing their scores is worth; the POST spends what the
	// analyst has left this hour on the top of the list (auditors refused,
	// like every change).
	app.GET(refreshPlanPath, h.showRefreshPlan)
	app.POST(refreshPlanPath, h.submitRefreshPlan)

	// Print (issue 31): a business's credit summary on at most two pages;
	// the credit memo of a request is with the decisions above.
	app.GET("/businesses/:id/summary", byID(h.showBusinessSummary))

	// The e-mail digest (issue 28): settings, the next digest's preview,
	// sending one now; the links a mail carries work without signing in
	// (signed, expiring) and change nothing until their button is pressed.
	app.GET("/settings/digest", h.showDigestSettings)
	app.POST("/settings/digest", h.submitDigestSettings)
	app.POST("/settings/digest/verify", h.submitDigestVerifyAgain)
	app.POST("/settings/digest/send", h.submitDigestSend)
	app.GET("/settings/digest/verify", goTo("/settings/digest"))
	app.GET("/settings/digest/send", goTo("/settings/digest"))
	app.GET("/digest/preview", h.showDigestPreview)
	pages.GET("/digest/verify", h.showDigestLink(digest.KindVerify))
	pages.POST("/digest/verify", h.submitDigestLink(digest.KindVerify))
	pages.GET("/digest/unsubscribe", h.showDigestLink(digest.KindUnsubscribe))
	pages.POST("/digest/unsubscribe", h.submitDigestLink(digest.KindUnsubscribe))

	// Webhooks (issue 46): where the team's events go; managers change it.
	app.GET(webhooksPath, h.showWebhooks)
	app.POST(webhooksPath, h.submitWebhook)
	app.POST(webhooksPath+"/:id/remove", h.submitRemoveWebhook)
	app.POST(webhooksPath+"/deliveries/:id/replay", h.submitReplayDelivery)
	app.GET(webhooksPath+"/:id/remove", goTo(webhooksPath))
	app.GET(webhooksPath+"/deliveries/:id/replay", goTo(webhooksPath))

	// Credit applications (issue 44): the team's inbox; invitations and
	// decisions are CSRF-checked POSTs, every step audited. The documents
	// download like the other files, outside a page's turn.
	app.GET("/applications", h.showApplications)
	app.POST("/applications", h.submitInvite)
	app.POST("/applications/link", h.submitApplicationLink)
	app.GET("/applications/link", goTo("/applications"))
	app.GET("/applications/:id", h.showApplication)
	app.POST("/applications/:id/match", h.submitApplicationMatch)
	app.POST("/applications/:id/report", h.submitApplicationReport)
	app.POST("/applications/:id/decide", h.submitApplicationDecision)
	app.POST("/applications/:id/revoke", h.submitApplicationRevoke)
	app.GET("/applications/:id/match", toRow("/applications/", ""))
	app.GET("/applications/:id/report", toRow("/applications/", ""))
	app.GET("/applications/:id/decide", toRow("/applications/", ""))
	app.GET("/applications/:id/revoke", toRow("/applications/", ""))
	accountFiles.GET("/applications/:id/documents/:n", h.exportApplicationDocument)
	accountFiles.GET("/applications.csv", h.exportApplicationsCSV)

	// The worklist (issue 27): every account that needs something; owners
	// assigned one account at a time or several at once, each logged.
	team.GET("/worklist", h.showWorklist)
	app.POST("/worklist/owner", h.submitBulkOwner)
	app.GET("/worklist/owner", goTo("/worklist"))
	app.POST("/accounts/:account/owner", h.submitOwner)
	app.GET("/accounts/:account/owner", toReviewPage)

	// A form's address asked for with GET leads to the form's page
	// (forms.go); nothing changes.
	pages.GET("/logout", h.showSignOut)
	app.GET("/refresh", goTo("/"))
	app.GET("/businesses/:id/watch", byID(toReport("")))
	app.GET("/businesses/:id/unwatch", byID(toReport("")))
	app.GET("/businesses/:id/notes", byID(toReport("#notes")))
	app.GET("/businesses/:id/snapshots", byID(toReport("")))
	app.GET("/notes/:id/edit", h.showNoteEdit)
	app.GET("/notes/:id/delete", toRow("/notes/", "/edit"))
	app.GET("/alerts/rules", goTo("/alerts"))
	app.GET("/alerts/rules/:id/delete", goTo("/alerts"))
	app.GET("/alerts/:id/read", goTo("/alerts"))
	app.GET("/alerts/read-all", goTo("/alerts"))
	app.GET("/snapshots/:id/delete", toRow("/snapshots/", ""))

	// Downloads last as long as the browser reads them, so they never hold
	// a page's turn; exports have fair shares of their own. The export is
	// GET so that a plain link or form downloads it.
	files := pages.Group("", h.requireSignIn, h.guardRoles)
	files.GET("/portfolio/export", h.exportPortfolio, h.sameSiteOnly(crossSiteExport))
	files.GET("/watchlist.csv", h.exportWatchlist)
	files.GET("/notes.csv", h.exportNotes)
	return e
}

// showFavicon points browsers, which ask for /favicon.ico on their own, at
// ours.
func (h *Handler) showFavicon(c *echo.Context) error {
	return c.Redirect(http.StatusMovedPermanently, h.urls.Icon)
}

// showRobots keeps crawlers out: every page is an account's.
func showRobots(c *echo.Context) error {
	return c.String(http.StatusOK, "User-agent: *\nDisallow: /\n")
}
