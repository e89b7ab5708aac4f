package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// The report's officers tab; its industry codes are the header's.

// officersData is the officers tab's service data as a copy stores it;
// its industry codes are the header's.
type officersData struct {
	copyHeader
	Officers []upstream.Officer `json:"officers"`
}

// officersLoad is the officers tab's calls.
type officersLoad struct {
	hd          headerData
	d           officersData
	officersErr error
}

// newOfficersTab is the officers tab, which has no controls.
func newOfficersTab(func(string) string) tabPage { return &officersLoad{} }

func (l *officersLoad) sections(ref upstream.BusinessRef) []section {
	return []section{l.hd.section(ref),
		one("officers", func(ctx context.Context, src Source) { l.d.Officers, l.officersErr = src.Officers(ctx, ref) }),
	}
}

func (l *officersLoad) header() *headerData { return &l.hd }
func (l *officersLoad) errs() []error       { return []error{l.officersErr} }
func (l *officersLoad) value(string) string { return "" }

func (l *officersLoad) kept() any {
	d := l.d
	d.copyHeader = headerCopy(&l.hd)
	return &d
}

func (l *officersLoad) restore(data []byte) error {
	return restoreCopy(data, &l.d, &l.d.copyHeader, &l.hd)
}

func (l *officersLoad) facts() []views.Fact {
	return views.OfficersFacts(l.hd.identification(), l.hd.naics, l.d.Officers)
}

// page counts the officers' tenures to the copy's date: the page says what
// was true then.
func (l *officersLoad) page(h *Handler, c *echo.Context, base views.Base, header views.BusinessHeader, asOf time.Time) (templ.Component, error) {
	page := views.BusinessOfficersPage{Base: base, Header: header}
	h.fillOfficers(c, &page, l, asOf)
	return templates.BusinessOfficers(page), nil
}

func (l *officersLoad) sheet(s *views.CreditSheet, src *views.SheetSource, asOf time.Time) error {
	sheetOfficers(s, l.d.Officers, asOf, src)
	return nil
}

// fillOfficers fills the officers table; tenures are counted to now.
func (h *Handler) fillOfficers(c *echo.Context, page *views.BusinessOfficersPage, l *officersLoad, now time.Time) {
	if page.OfficersProblem = h.sectionProblem(c, l.officersErr); page.OfficersProblem == nil {
		page.Officers = views.OfficerRows(l.d.Officers, now)
	}
}

// showBusinessOfficers shows the officers; the industry codes come from the
// header's own call.
func (h *Handler) showBusinessOfficers(c *echo.Context, ref upstream.BusinessRef) error {
	l := &officersLoad{}
	ld := h.load(c, l.sections(ref)...)
	if err := l.hd.pageError(l.errs()...); err != nil {
		return err
	}
	h.reportNews(c, ld, &l.hd)
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.BusinessOfficersPage{}
		page.Base, page.Header = h.businessBase(c, ld, ref, &l.hd, views.TabOfficers)
		h.fillOfficers(c, &page, l, page.Now)
		return http.StatusOK, templates.BusinessOfficers(page), nil
	})
}
