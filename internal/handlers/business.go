package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/credit"
	"creditdash/internal/session"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/views"
	"creditdash/templates"
)

// The business report: four tabs, each reachable by the service's id, by a
// CustomerId and by a SupplierId. Service calls per tab, all concurrent:
//
//	every tab   IdentificationGroup, NAICSCodes (the header)
//	overview    + Summary, CreditScoreHistory, RiskHistory
//	payments    + PaymentSummary/Monthly, PaymentSummary/SIC
//	financials  + LatestAnnualStatements, WordFill
//	officers    + Officers (its industry codes come from the header's call)
//
// A 404 from any operation of the specification means the business does not
// exist (404 page). IdentificationGroup is an operation the specification
// names without a shape, so a 404 from it alone means "not offered here":
// the header then reads "Business {identifier}".

// tab shows one tab of a business report.
type tab func(c *echo.Context, ref upstream.BusinessRef) error

// byID, byCustomerID and bySupplierID read the business reference from the
// route's parameter before the tab runs: the three ways of addressing a
// business share the tabs.
func byID(show tab) echo.HandlerFunc { return withRef(parseIDParam, show) }

func byCustomerID(show tab) echo.HandlerFunc {
	return withRef(parseExternalParam("customerId", upstream.ByCustomerID, "Customer ids", "C1-1001"), show)
}

func bySupplierID(show tab) echo.HandlerFunc {
	return withRef(parseExternalParam("supplierId", upstream.BySupplierID, "Supplier ids", "S-1001"), show)
}

func withRef(parse func(*echo.Context) (upstream.BusinessRef, error), show tab) echo.HandlerFunc {
	return func(c *echo.Context) error {
		ref, err := parse(c)
		if err != nil {
			return err
		}
		return show(c, ref)
	}
}

// pathParam is a path parameter as the user typed it. The router matches on
// the escaped path when escaping matters, so the value may still need it.
func pathParam(c *echo.Context, name string) (string, bool) {
	raw := c.Param(name)
	if c.Request().URL.RawPath == "" {
		return raw, true
	}
	s, err := url.PathUnescape(raw)
	return s, err == nil
}

func parseIDParam(c *echo.Context) (upstream.BusinessRef, error) {
	raw, _ := pathParam(c, "id")
	ref, err := upstream.ParseID(raw)
	if err != nil {
		return ref, badInput("“%s” is not a business id. Business ids are whole numbers from 1 to 2147483647, such as 1001.", views.Clip(raw, 40))
	}
	return ref, nil
}

// parseExternalParam reads a CustomerId or SupplierId, which the service
// treats as opaque text, refusing what it could never resolve.
func parseExternalParam(name string, by func(string) upstream.BusinessRef, what, example string) func(*echo.Context) (upstream.BusinessRef, error) {
	return func(c *echo.Context) (upstream.BusinessRef, error) {
		raw, ok := pathParam(c, name)
		ref := by(raw)
		if !ok || ref.Validate() != nil {
			return ref, badInput("%s are codes of up to 64 characters without spaces, such as %s.", what, example)
		}
		return ref, nil
	}
}

// headerData holds the two calls behind the header of every tab.
type headerData struct {
	ident    upstream.Identification
	identErr error
	naics    []upstream.NAICSCode
	naicsErr error
	// stories are the news already fetched, read for the stories naming
	// the business (report_tabs.go); nil on a dated copy.
	stories *storiesRead
}

// section is the header's service calls: the first section of every tab.
func (hd *headerData) section(ref upstream.BusinessRef) section {
	return section{name: "header", calls: []func(context.Context, Source){
		func(ctx context.Context, src Source) { hd.ident, hd.identErr = src.IdentificationGroup(ctx, ref) },
		func(ctx context.Context, src Source) { hd.naics, hd.naicsErr = src.NAICSCodes(ctx, ref) },
	}}
}

// pageError decides whether the page can render at all, given the header's
// results and the errors of the tab's own calls. It returns the error the
// error handler must turn into a whole page: a refused session, a
// trade-provider problem, an unknown business, or a failed header.
func (hd *headerData) pageError(sectionErrs ...error) error {
	all := append([]error{hd.identErr, hd.naicsErr}, sectionErrs...)
	for _, err := range all {
		if errors.Is(err, upstream.ErrSessionExpired) || isTradeProviderProblem(err) {
			return err
		}
	}
	for _, err := range append([]error{hd.naicsErr}, sectionErrs...) {
		if errors.Is(err, upstream.ErrNotFound) {
			return err
		}
	}
	// A failed header is the whole page's failure when the service is down;
	// an exhausted quota is told in the header instead, so the user keeps
	// the page and whatever came from the cache.
	if hd.identErr != nil && !errors.Is(hd.identErr, upstream.ErrNotFound) && !isDeferred(hd.identErr) &&
		!errors.Is(hd.identErr, upstream.ErrRateLimited) {
		return hd.identErr
	}
	return nil
}

// identification is nil when the service does not offer IdentificationGroup.
func (hd *headerData) identification() *upstream.Identification {
	if hd.identErr != nil {
		return nil
	}
	return &hd.ident
}

// public says whether the business is public, nil when unknown.
func (hd *headerData) public() *bool {
	if hd.identErr != nil {
		return nil
	}
	p := hd.ident.Public
	return &p
}

// isDeferred reports a section left unloaded to save requests.
func isDeferred(err error) bool {
	var de *deferredError
	return errors.As(err, &de)
}

// outOfRequests reports a call not made, or refused, for want of requests
// this hour: left unloaded by the plan, refused by the reservation book,
// or refused by the service.
func outOfRequests(err error) bool {
	return isDeferred(err) || errors.Is(err, cache.ErrBudgetSpent) || errors.Is(err, upstream.ErrRateLimited)
}

func isTradeProviderProblem(err error) bool {
	var ue *upstream.Error
	return errors.As(err, &ue) && ue.Code == upstream.CodeTradeProviderNotSelected
}

// businessBase builds the header and the shared part of a tab's view model.
func (h *Handler) businessBase(c *echo.Context, ld *loaded, ref upstream.BusinessRef, hd *headerData, tab views.BusinessTab) (views.Base, views.BusinessHeader) {
	if errors.Is(hd.identErr, upstream.ErrNotFound) && hd.naicsErr == nil {
		// The business exists, so the service lacks IdentificationGroup:
		// stop asking for a while.
		h.features.markMissing(session.Must(c).User, featureIdent)
	}
	share := h.siteURL(c) + pageURL(c).RequestURI()
	header := views.NewBusinessHeader(ref, hd.identification(), hd.naics, tab, share)
	header.News = h.newsSection(hd)
	switch {
	case hd.naicsErr != nil:
		header.NAICSProblem = h.sectionProblem(c, hd.naicsErr)
	case outOfRequests(hd.identErr):
		// The name is missing for want of requests: say so where it would be.
		header.NAICSProblem = h.sectionProblem(c, hd.identErr)
	}
	b := h.base(c, ld, header.Name+" · "+tab.Label(), views.NavBusiness)
	b.Workspace.Watch = h.watchState(c, ref, hd)
	if id, _ := reportBusiness(ref, hd); id != 0 {
		b.Workspace.SaveSnapshot = views.NewSnapshotForm(id, tab)
		header.AlertURL = views.AlertMeURL(id)
		if header.News != nil {
			// Not on a dated copy (no news): it shows the day it was saved.
			header.Default = h.reportDefault(c, ld, id, header.News)
		}
	}
	return b, header
}

// showBusinessSummary is /businesses/{id}/summary: a business's credit
// summary from today's report, to print on at most two pages: header,
// the four scores with zones, payment trend, Z″ with its ratios, a credit
// event from the news, the analyst's notes, all dated. It asks for the
// overview's scores and summary, the payments and the statements with
// their Z″ history; a section the service did not answer says so.
func (h *Handler) showBusinessSummary(c *echo.Context, ref upstream.BusinessRef) error {
	now := h.now()
	win, _ := parseWindow("", "", now)
	ov := &overviewLoad{win: win}
	pl := &paymentsLoad{}
	fl, _, _ := newFinancialsLoad(func(string) string { return "" })
	ovSecs, plSecs, flSecs := ov.sections(ref), pl.sections(ref), fl.sections(ref)
	// The header, scores and summary (no risk history); the payments; the
	// statements and the Z″ history (no comments, no peers).
	secs := append(ovSecs[:3:3], plSecs[1:]...)
	secs = append(secs, flSecs[1], flSecs[4])
	ld := h.load(c, secs...)
	if err := ov.hd.pageError(ov.summaryErr, ov.histErr, pl.monthlyErr, pl.sicErr, fl.stmtsErr, fl.zHistErr); err != nil {
		return err
	}
	h.reportNews(c, ld, &ov.hd)
	var notes func() *views.NotesSection
	if id, _ := reportBusiness(ref, &ov.hd); id != 0 {
		notes = h.startNotes(c, id, nil)
	}
	base, header := h.businessBase(c, ld, ref, &ov.hd, views.TabOverview)
	p := views.SummaryPage{Base: base, ReportURL: views.BusinessPath(ref, views.TabOverview)}
	p.Title = header.Name + " · Credit summary"
	p.Printed, p.PrintedISO = views.DateTime(now), now.UTC().Format(time.RFC3339)
	s := &p.Sheet
	s.Name, s.Location, s.Facts, s.NAICS = header.Name, header.Location, header.Facts, header.NAICS
	s.Absent = "Not loaded: see the note at the top."
	if header.News != nil {
		s.Event = header.News.Event
	}
	fetched := ld.rd.Report().FetchedAt
	if fetched.IsZero() {
		fetched = now
	}
	source := func(tab views.BusinessTab) *views.SheetSource {
		return views.NewSheetSource("report's "+tab.Label(), views.BusinessPath(ref, tab), fetched)
	}
	problem := func(what string, errs ...error) bool {
		for _, err := range errs {
			if pr := h.sectionProblem(c, err); pr != nil {
				p.Problems = append(p.Problems, what+": "+pr.Message)
				return true
			}
		}
		return false
	}
	if !problem("Scores and summary", ov.histErr, ov.summaryErr) {
		sheetOverview(s, &ov.d, source(views.TabOverview))
	}
	if !problem("Payments", pl.monthlyErr, pl.sicErr) {
		sheetPayments(s, &pl.d, source(views.TabPayments))
	}
	if !problem("Statements", fl.stmtsErr, fl.zHistErr) {
		if err := sheetFinancials(s, &fl.d, source(views.TabFinancials)); err != nil {
			return err
		}
		s.PeerNote = "" // the summary does not ask for the peers
	}
	if notes != nil {
		if sec := notes(); sec.Problem != nil {
			p.Problems = append(p.Problems, "Notes: "+sec.Problem.Message)
		} else {
			s.NotesSource = views.NewSheetSource("your notes", views.BusinessPath(ref, views.TabOverview)+"#notes", now)
			s.Notes, s.NotesOmitted = views.SheetNotes(views.SheetNotesOf(sec.Notes))
		}
	}
	if id, _ := reportBusiness(ref, &ov.hd); id != 0 {
		// The team's own exposure; a store that cannot say costs the
		// section, not the summary.
		if err := h.sheetExposure(c, s, func(f credit.Figures) bool { return f.BusinessID == id }); err != nil {
			h.logWorkspace(c, "summary exposure", err)
			p.Problems = append(p.Problems, "The team's exposure: the team's record did not answer; try again in a moment.")
		}
	}
	return h.render(c, http.StatusOK, templates.CreditSummary(p))
}
