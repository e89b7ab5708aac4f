package handlers

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

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
	return h.render(c, http.StatusOK, templates.CreditSummary(p))
}
