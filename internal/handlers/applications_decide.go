package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"creditdash/internal/amount"
	"creditdash/internal/applications"
	"creditdash/internal/credit"
	"creditdash/internal/roles"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// One application for the team: its answers, documents and references;
// its match to the service's business (identifiers first, then the exact
// name, confirmed or corrected by hand); the report pulled once with its
// cost shown before; and the decision through the limit rules.

// applicationPage is the page of app, nothing typed yet; pl is the
// credit policy's limit for it (nil none).
func (h *Handler) applicationPage(c *echo.Context, app store.Application, pl *credit.PolicyLimit) views.ApplicationPage {
	user := session.Must(c).User
	as := h.rolesNow(c).Of(user)
	id := strconv.FormatInt(app.ID, 10)
	p := views.ApplicationPage{ID: id, Number: strconv.FormatInt(app.Number, 10), Company: app.Company, Email: app.Email,
		Status: appStatus(app, h.now()), Source: app.Source, Created: views.DateTime(app.CreatedAt), Expires: views.DateTime(app.ExpiresAt),
		MayChange: as.Role.May(roles.ChangeAccounts), MayDecide: as.Role.May(roles.RequestLimit),
		Undecided: app.Status == store.AppSubmitted, Account: store.ApplicationAccount(app.Number), Decision: app.DecisionNote}
	if p.Company == "" {
		p.Company = "Application " + p.Number
	}
	if !app.SubmittedAt.IsZero() {
		p.Submitted, p.SignedFrom, p.SignedHash = views.DateTime(app.SubmittedAt), app.SubmittedFrom, app.SignedSHA256
	}
	if app.Open(h.now()) {
		p.Link = h.apps.ApplyURL(app)
	}
	f := applications.Parse(app.Answers)
	p.Answers, p.Documents, p.References = h.applicationRecord(app)
	p.Amount = views.Clip(f.Limit, 40) // the approval form starts from the limit asked
	if pl != nil && app.Status == store.AppSubmitted {
		p.Policy = pl.Rationale
		asked, ok, err := amount.Typed(f.Limit)
		switch {
		case !pl.Known:
			p.PolicyNote = "No policy limit is worked out, so the approval waits for a second person."
		case err == nil && ok && asked <= pl.Limit:
			p.PolicyNote = "The limit asked, " + views.Amount(asked) + ", is within the policy limit: proposed as asked."
		default:
			p.Amount = strings.TrimPrefix(views.Amount(pl.Limit), "$")
			p.PolicyNote = "Proposed: the policy limit, " + views.Amount(pl.Limit) + ", below the limit asked (" + views.Clip(f.Limit, 40) + "). Above it, the approval waits for a second person."
		}
	}
	if app.BusinessID != 0 {
		p.BusinessID, p.MatchedBy = strconv.Itoa(int(app.BusinessID)), app.MatchedBy
		p.BusinessURL = views.BusinessPath(upstream.ByID(app.BusinessID), views.TabOverview)
		if app.ReportAt.IsZero() {
			p.ReportCost = h.reportCost(c, app.BusinessID)
		} else {
			p.ReportPulled = "Pulled by " + app.ReportBy + " on " + views.DateTime(app.ReportAt) + "."
		}
	}
	if app.RequestID != 0 {
		p.RequestURL = views.DecisionPath(app.RequestID)
	}
	if app.DecidedAmount != nil {
		p.Amount = views.Amount(*app.DecidedAmount)
	}
	if app.Account != "" {
		p.Account = app.Account
	}
	p.Decided = app.Status == store.AppApproved || app.Status == store.AppDeclined
	switch {
	case app.Status == store.AppWaiting:
		p.StatusNote = "Above the decider's authority or what the credit policy lets be decided at once: a limit request waits for a second manager; the applicant hears once it is decided."
	case p.Decided && app.NotifiedAt.IsZero():
		p.StatusNote = "Decided by " + app.DecidedBy + " on " + views.DateTime(app.DecidedAt) + "; the applicant's e-mail is being sent."
	case p.Decided:
		p.StatusNote = "Decided by " + app.DecidedBy + " on " + views.DateTime(app.DecidedAt) + "; the applicant was told on " + views.DateTime(app.NotifiedAt) + "."
	}
	p.Base = h.base(c, nil, "Application "+p.Number+" · "+p.Company, views.NavAccounts)
	return p
}

// applicationPolicy is the credit policy's limit for a matched
// application (nil when unmatched or no policy is in force): its
// business's class by the team's known scores, with no ledger yet, and
// the class's rule applied to the calculator given the purchases the
// applicant expects a month and the terms asked, with no loss budget and
// no statements read.
func (h *Handler) applicationPolicy(c *echo.Context, app store.Application) (*credit.PolicyLimit, error) {
	if app.BusinessID == 0 {
		return nil, nil
	}
	rule, err := h.activePolicy(c)
	if err != nil || rule == nil {
		return nil, err
	}
	known, err := h.store.KnownScores(c.Request().Context(), h.analyst(c))
	if err != nil {
		return nil, err
	}
	fig := credit.NewFigures(store.Account{LedgerLine: store.LedgerLine{BusinessID: app.BusinessID}}, known[app.BusinessID])
	f := applications.Parse(app.Answers)
	monthly, ok, err := amount.Typed(f.Monthly)
	if err != nil || !ok || monthly < 0 {
		monthly = 0
	}
	var terms *int
	if days, err := strconv.Atoi(strings.TrimPrefix(f.Terms, "Net ")); err == nil {
		terms = &days
	}
	var z *float64
	if fig.Z != nil {
		z = &fig.Z.Value
	}
	sheet := credit.Cap{Name: "Balance-sheet cap", Rationale: "Skipped: an application's limit reads no statements."}
	calc := credit.Calculate(credit.LimitInputs{MonthlySales: monthly, MonthsAllowed: credit.DefaultMonths(terms)}, fig.Band, z, sheet)
	pl := rule.limit(&fig, calc, monthly)
	pl.Rationale += " From the application: " + calc.Caps[0].Rationale
	return &pl, nil
}

// reportCost says what pulling the matched business's report costs and
// what the user has left this hour.
func (h *Handler) reportCost(c *echo.Context, business int32) string {
	rt, err := lookupTab(views.TabOverview)
	if err != nil {
		return ""
	}
	n := countCalls(rt.load(func(string) string { return "" }).sections(upstream.ByID(business)))
	msg := "Pulling the report costs up to " + views.Plural(n, "request") + " of your hourly budget (fewer when copies are kept)"
	if q, ok := h.cache.Quota(session.Must(c).User); ok && q.Limit > 0 {
		msg += "; you have " + strconv.Itoa(q.Remaining) + " of " + strconv.Itoa(q.Limit) + " left this hour"
	}
	return msg + ". It is pulled once for the application."
}

// showApplication is /applications/{id}; with ?find=1 it looks for the
// business (one or two requests, asked for).
func (h *Handler) showApplication(c *echo.Context) error {
	app, err := h.teamApplication(c)
	if err != nil {
		return err
	}
	pl, err := h.applicationPolicy(c, app)
	if err != nil {
		return err
	}
	p := h.applicationPage(c, app, pl)
	if c.QueryParam("done") == "1" {
		p.Flash = "Decision recorded."
	}
	if c.QueryParam("find") == "1" && app.Status == store.AppSubmitted {
		h.findBusiness(c, app, &p)
	}
	return h.render(c, http.StatusOK, templates.Application(p))
}

// findBusiness lists the businesses the application may be: the one its
// registration number names when that is a service id, then those the
// name search finds, exact names first.
func (h *Handler) findBusiness(c *echo.Context, app store.Application, p *views.ApplicationPage) {
	f := applications.Parse(app.Answers)
	var ident upstream.Identification
	var found []upstream.SearchResult
	var ierr, serr error
	calls := []func(context.Context, Source){func(ctx context.Context, src Source) { found, serr = src.Search(ctx, f.LegalName, searchResults) }}
	byID, perr := strconv.ParseInt(strings.TrimSpace(f.Registration), 10, 32)
	if perr == nil && byID > 0 {
		calls = append(calls, func(ctx context.Context, src Source) {
			ident, ierr = src.IdentificationGroup(ctx, upstream.ByID(int32(byID)))
		})
	}
	p.MatchQuery = f.LegalName
	h.load(c, section{name: "match", always: true, calls: calls})
	if ierr == nil && ident.BusinessID > 0 {
		p.Candidates = append(p.Candidates, views.SearchRow{Name: ident.BusinessName + " (by its registration number)",
			ID: strconv.Itoa(int(ident.BusinessID)), Location: strings.TrimSpace(ident.City + " " + ident.State)})
	}
	var exact, others []upstream.SearchResult
	for _, r := range found {
		if strings.EqualFold(strings.TrimSpace(r.BusinessName), strings.TrimSpace(f.LegalName)) {
			exact = append(exact, r)
		} else {
			others = append(others, r)
		}
	}
	p.Candidates = append(p.Candidates, views.SearchRows(append(exact, others...))...)
	if serr != nil && !errors.Is(serr, upstream.ErrNotFound) {
		if pr := h.sectionProblem(c, serr); pr != nil {
			p.MatchProblem = pr.Message
		}
	}
	if len(p.Candidates) == 0 && p.MatchProblem == "" {
		p.MatchProblem = "The service finds no business by that name; type its id below."
	}
}

// submitApplicationMatch links the application to the business chosen or
// typed, once the service confirms the id (one request).
func (h *Handler) submitApplicationMatch(c *echo.Context) error {
	app, err := h.teamApplication(c)
	if err != nil {
		return err
	}
	pl, err := h.applicationPolicy(c, app)
	if err != nil {
		return err
	}
	p := h.applicationPage(c, app, pl)
	typed := strings.TrimSpace(c.FormValue("business"))
	id, perr := strconv.ParseInt(typed, 10, 32)
	if perr != nil || id <= 0 {
		p.MatchProblem = "Type the business id as digits only, such as 1003."
		return h.render(c, http.StatusUnprocessableEntity, templates.Application(p))
	}
	var ident upstream.Identification
	var ierr error
	h.load(c, section{name: "ident", always: true, calls: []func(context.Context, Source){
		func(ctx context.Context, src Source) {
			ident, ierr = src.IdentificationGroup(ctx, upstream.ByID(int32(id)))
		},
	}})
	if err := expiredAmong(ierr); err != nil {
		return err
	}
	if ierr != nil {
		p.MatchProblem = "No business " + typed + " could be confirmed: the service knows no such id, or did not answer. Check the id and try again."
		if pr := h.sectionProblem(c, ierr); pr != nil && !errors.Is(ierr, upstream.ErrNotFound) {
			p.MatchProblem = pr.Message
		}
		return h.render(c, http.StatusUnprocessableEntity, templates.Application(p))
	}
	how := "confirmed by hand: " + views.Clip(ident.BusinessName, 120)
	if _, err := h.store.MatchApplication(c.Request().Context(), h.analyst(c), app.ID, int32(id), how); err != nil {
		var ve *store.ValidationError
		if errors.As(err, &ve) {
			p.MatchProblem = storeMessage(err)
			return h.render(c, http.StatusConflict, templates.Application(p))
		}
		return accountsError(err)
	}
	return redirect(c, "/applications/"+p.ID+"#match")
}

// submitApplicationReport pulls the matched business's report, once: the
// report's page reads it within the hourly budget.
func (h *Handler) submitApplicationReport(c *echo.Context) error {
	app, err := h.teamApplication(c)
	if err != nil {
		return err
	}
	app, _, err = h.store.NoteApplicationReport(c.Request().Context(), h.analyst(c), app.ID)
	var ve *store.ValidationError
	if errors.As(err, &ve) {
		return badInput("%s", storeMessage(err))
	}
	if err != nil {
		return accountsError(err)
	}
	return redirect(c, views.BusinessPath(upstream.ByID(app.BusinessID), views.TabOverview))
}

// submitApplicationDecision approves (amount and note) or declines
// (reason) a submitted application through the limit rules: within the
// decider's authority at once, above it a limit request for four eyes.
func (h *Handler) submitApplicationDecision(c *echo.Context) error {
	app, err := h.teamApplication(c)
	if err != nil {
		return err
	}
	pl, err := h.applicationPolicy(c, app)
	if err != nil {
		return err
	}
	p := h.applicationPage(c, app, pl)
	approve := c.FormValue("outcome") == "approve"
	note := strings.TrimSpace(c.FormValue("note"))
	typedAmount := strings.TrimSpace(c.FormValue("amount"))
	p.Note, p.Amount = views.Clip(note, store.MaxRequestReasonLen+100), views.Clip(typedAmount, 40)
	if acc := strings.TrimSpace(c.FormValue("account")); acc != "" {
		p.Account = views.Clip(acc, 80)
	}
	d := store.AppDecision{Approve: approve, Note: note, Account: p.Account,
		Authority: float64(h.rolesNow(c).Of(session.Must(c).User).Authority)}
	if pl != nil {
		d.Policy = pl.Request()
	}
	switch n := utf8.RuneCountInString(note); {
	case n == 0 && approve:
		p.DecideError = "Say why the application is approved: the note is kept with the decision and printed on the memo."
	case n == 0:
		p.DecideError = "Say why the application is declined."
	case n > store.MaxRequestReasonLen:
		p.DecideError = "Keep the note to 2,000 characters."
	}
	if approve && p.DecideError == "" {
		v, ok, err := amount.Typed(typedAmount)
		switch {
		case err != nil:
			p.DecideError = sentence(err.Error())
		case !ok || store.CheckAmount(v, false) != nil:
			p.DecideError = "Give the limit approved, such as 25,000."
		}
		d.Amount = v
	}
	if p.DecideError != "" {
		return h.render(c, http.StatusUnprocessableEntity, templates.Application(p))
	}
	got, _, err := h.store.DecideApplication(c.Request().Context(), h.analyst(c), app.ID, d)
	var ve *store.ValidationError
	switch {
	case errors.As(err, &ve) || errors.Is(err, store.ErrRequestsFull) || errors.Is(err, store.ErrAccountsFull):
		p.DecideError = storeMessage(err)
		return h.render(c, http.StatusUnprocessableEntity, templates.Application(p))
	case err != nil:
		return decisionsError(err)
	}
	h.apps.Decided(c.Request().Context(), got)
	return redirect(c, "/applications/"+p.ID+"?done=1")
}

// submitApplicationRevoke ends an invitation's link before it is used.
func (h *Handler) submitApplicationRevoke(c *echo.Context) error {
	app, err := h.teamApplication(c)
	if err != nil {
		return err
	}
	if _, err := h.store.RevokeApplication(c.Request().Context(), h.analyst(c), app.ID, "revoked by "+session.Must(c).User); err != nil {
		var ve *store.ValidationError
		if errors.As(err, &ve) {
			return badInput("%s", storeMessage(err))
		}
		return accountsError(err)
	}
	return redirect(c, "/applications/"+strconv.FormatInt(app.ID, 10))
}
