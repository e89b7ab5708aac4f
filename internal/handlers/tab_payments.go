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

// The report's payments tab: the monthly aging and the SIC breakdown.

// paymentsData is the payments tab's service data as a copy stores it.
type paymentsData struct {
	copyHeader
	Monthly []upstream.PaymentSummaryRow `json:"monthly"`
	SIC     []upstream.PaymentSummaryRow `json:"sic"`
}

// paymentsLoad is the payments tab's calls.
type paymentsLoad struct {
	hd                 headerData
	d                  paymentsData
	monthlyErr, sicErr error
	// own is the team's supplier category, read once by the page (its
	// key, its alerts and its panel agree on it).
	own string
}

// newPaymentsTab is the payments tab, which has no controls.
func newPaymentsTab(func(string) string) tabPage { return &paymentsLoad{} }

func (l *paymentsLoad) sections(ref upstream.BusinessRef) []section {
	return []section{l.hd.section(ref),
		one("monthly", func(ctx context.Context, src Source) { l.d.Monthly, l.monthlyErr = src.PaymentSummaryMonthly(ctx, ref) }),
		one("sic", func(ctx context.Context, src Source) { l.d.SIC, l.sicErr = src.PaymentSummarySIC(ctx, ref) }),
	}
}

func (l *paymentsLoad) header() *headerData { return &l.hd }
func (l *paymentsLoad) errs() []error       { return []error{l.monthlyErr, l.sicErr} }
func (l *paymentsLoad) value(string) string { return "" }

func (l *paymentsLoad) kept() any {
	d := l.d
	d.copyHeader = headerCopy(&l.hd)
	return &d
}

func (l *paymentsLoad) restore(data []byte) error {
	return restoreCopy(data, &l.d, &l.d.copyHeader, &l.hd)
}

func (l *paymentsLoad) facts() []views.Fact {
	return views.PaymentsFacts(l.hd.identification(), l.d.Monthly, l.d.SIC)
}

func (l *paymentsLoad) page(h *Handler, c *echo.Context, base views.Base, header views.BusinessHeader, _ time.Time) (templ.Component, error) {
	page := views.BusinessPaymentsPage{Base: base, Header: header}
	page.Charts = true
	if len(l.d.SIC) > 0 {
		l.own = h.ownCategory(c)
	}
	if err := h.fillPayments(c, &page, l); err != nil {
		return nil, err
	}
	return templates.BusinessPayments(page), nil
}

func (l *paymentsLoad) sheet(s *views.CreditSheet, src *views.SheetSource, _ time.Time) error {
	sheetPayments(s, &l.d, src)
	return nil
}

// fillPayments fills the monthly aging and the SIC breakdown.
func (h *Handler) fillPayments(c *echo.Context, page *views.BusinessPaymentsPage, l *paymentsLoad) error {
	var err error
	if page.MonthlyProblem = h.sectionProblem(c, l.monthlyErr); page.MonthlyProblem == nil {
		page.Monthly = views.AgingRows(l.d.Monthly)
		page.DBTExplain = views.ExplainDBT(l.d.Monthly)
		if page.AgingChart, err = views.AgingChart(l.d.Monthly); err != nil {
			return err
		}
	}
	if page.SICProblem = h.sectionProblem(c, l.sicErr); page.SICProblem == nil {
		page.SICMonth, page.SICRows = views.SICLatest(l.d.SIC)
		if page.SICChart, err = views.SICDBTChart(l.d.SIC); err != nil {
			return err
		}
		if page.SICHeat, err = views.NewSICHeatMap(l.d.SIC); err != nil {
			return err
		}
		if page.MonthlyProblem == nil {
			return h.fillDivergence(c, page, l.d.Monthly, l.d.SIC, l.own)
		}
	}
	return nil
}

// showBusinessPayments shows the monthly aging and the SIC breakdown.
func (h *Handler) showBusinessPayments(c *echo.Context, ref upstream.BusinessRef) error {
	l := &paymentsLoad{}
	ld := h.load(c, l.sections(ref)...)
	if err := l.hd.pageError(l.errs()...); err != nil {
		return err
	}
	if l.sicErr == nil && len(l.d.SIC) > 0 {
		l.own = h.ownCategory(c)
	}
	h.reportNews(c, ld, &l.hd)
	return h.respond(c, ld, func() (int, templ.Component, error) {
		if l.monthlyErr == nil && l.sicErr == nil {
			h.evaluatePayments(c, ld, ref, &l.hd, l.d.Monthly, l.d.SIC, l.own)
			ld.arrived()
		}
		page := views.BusinessPaymentsPage{}
		page.Base, page.Header = h.businessBase(c, ld, ref, &l.hd, views.TabPayments)
		page.Charts = true
		if err := h.fillPayments(c, &page, l); err != nil {
			return 0, nil, err
		}
		return http.StatusOK, templates.BusinessPayments(page), nil
	})
}
