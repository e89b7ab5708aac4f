package handlers

import (
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/views"
	"creditdash/templates"
)

// How each tab's copy answers tabData: its data goes back into the tab's
// load, without errors, and the live tab's own fill builds the page.

func (d *overviewData) head() copyHeader { return d.copyHeader }

func (d *overviewData) value(name string) string {
	switch name {
	case "from":
		return d.From
	case "to":
		return d.To
	}
	return ""
}

// window is the frame the copy was shown with.
func (d *overviewData) window() scoreWindow { return windowOrDefault(d.From, d.To) }

// windowOrDefault is the frame a saved form names, or the default frame
// when the form is refused, as the overview shows it then.
func windowOrDefault(from, to string) scoreWindow {
	win, fault := parseWindow(from, to, time.Time{})
	if fault != views.WindowOK {
		win, _ = parseWindow("", "", time.Time{})
	}
	return win
}

func (d *overviewData) facts() []views.Fact {
	return views.OverviewFacts(d.Ident, d.Summary.Text, d.History, d.window().riskWithin(d.Risk))
}

func (d *overviewData) page(h *Handler, c *echo.Context, base views.Base, header views.BusinessHeader, _ time.Time) (templ.Component, error) {
	page := views.BusinessOverviewPage{Base: base, Header: header}
	page.Charts = true
	page.Window = views.TimeWindow{From: d.From, To: d.To}
	var public *bool
	if d.Ident != nil {
		public = &d.Ident.Public
	}
	if err := h.fillOverview(c, &page, &overviewLoad{win: d.window(), d: *d}, public); err != nil {
		return nil, err
	}
	return templates.BusinessOverview(page), nil
}

func (d *paymentsData) head() copyHeader    { return d.copyHeader }
func (d *paymentsData) value(string) string { return "" }
func (d *paymentsData) facts() []views.Fact {
	return views.PaymentsFacts(d.Ident, d.Monthly, d.SIC)
}

func (d *paymentsData) page(h *Handler, c *echo.Context, base views.Base, header views.BusinessHeader, _ time.Time) (templ.Component, error) {
	page := views.BusinessPaymentsPage{Base: base, Header: header}
	page.Charts = true
	if err := h.fillPayments(c, &page, &paymentsLoad{d: *d}); err != nil {
		return nil, err
	}
	return templates.BusinessPayments(page), nil
}

func (d *financialsData) head() copyHeader         { return d.copyHeader }
func (d *financialsData) value(name string) string { return d.Controls[name] }
func (d *financialsData) facts() []views.Fact {
	return views.FinancialsFacts(d.Ident, d.Statements, d.Comments.Text, d.Peers)
}

func (d *financialsData) page(h *Handler, c *echo.Context, base views.Base, header views.BusinessHeader, _ time.Time) (templ.Component, error) {
	page := views.BusinessFinancialsPage{Base: base, Header: header}
	l, _, _ := newFinancialsLoad(d.value)
	l.d = *d
	if err := h.fillFinancials(c, &page, l, ""); err != nil {
		return nil, err
	}
	return templates.BusinessFinancials(page), nil
}

func (d *officersData) head() copyHeader    { return d.copyHeader }
func (d *officersData) value(string) string { return "" }
func (d *officersData) facts() []views.Fact {
	return views.OfficersFacts(d.Ident, d.NAICS, d.Officers)
}

// page counts the officers' tenures to the copy's date: the page says what
// was true then.
func (d *officersData) page(h *Handler, c *echo.Context, base views.Base, header views.BusinessHeader, asOf time.Time) (templ.Component, error) {
	page := views.BusinessOfficersPage{Base: base, Header: header}
	h.fillOfficers(c, &page, &officersLoad{d: *d}, asOf)
	return templates.BusinessOfficers(page), nil
}
