package handlers

import (
	"fmt"

	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
)

// reportTab is one tab of the business report, as pkgsite's unitTabs
// rows are: everything the dashboard does with a tab (show it live, load
// it for a dated copy or a decision's evidence, read a copy back) starts
// from its row. Adding a tab is a row here; see the README's "How to add a
// report tab".
type reportTab struct {
	tab views.BusinessTab
	// load prepares the tab's calls with its controls' values (a query,
	// a form, a copy's saved controls).
	load func(value func(string) string) tabLoad
	// copy is an empty copy of the tab's data, to decode a saved one into.
	copy func() tabData
	// show serves the live tab at its literal routes.
	show func(h *Handler, c *echo.Context, ref upstream.BusinessRef) error
}

// reportTabs are the report's tabs, in the order views shows them.
var reportTabs = []reportTab{
	{
		tab: views.TabOverview,
		load: func(value func(string) string) tabLoad {
			return &overviewLoad{win: windowOrDefault(value("from"), value("to"))}
		},
		copy: func() tabData { return &overviewData{} },
		show: (*Handler).showBusinessOverview,
	},
	{
		tab:  views.TabPayments,
		load: func(func(string) string) tabLoad { return &paymentsLoad{} },
		copy: func() tabData { return &paymentsData{} },
		show: (*Handler).showBusinessPayments,
	},
	{
		tab: views.TabFinancials,
		load: func(value func(string) string) tabLoad {
			l, _, _ := newFinancialsLoad(value)
			return l
		},
		copy: func() tabData { return &financialsData{} },
		show: (*Handler).showBusinessFinancials,
	},
	{
		tab:  views.TabOfficers,
		load: func(func(string) string) tabLoad { return &officersLoad{} },
		copy: func() tabData { return &officersData{} },
		show: (*Handler).showBusinessOfficers,
	},
}

// lookupTab is tab's row. A tab views knows and this table lacks is a
// mistake in the code: it fails loudly rather than fall back to another
// tab.
func lookupTab(tab views.BusinessTab) (reportTab, error) {
	for _, rt := range reportTabs {
		if rt.tab == tab {
			return rt, nil
		}
	}
	return reportTab{}, fmt.Errorf("handlers: report tab %q has no row in reportTabs", tab.Name())
}

// showTab is the one show handler of the report's tabs, for the literal
// routes of routes.go. A tab without a row panics when the routes are
// built, so it never reaches a user.
func (h *Handler) showTab(tab views.BusinessTab) tab {
	rt, err := lookupTab(tab)
	if err != nil {
		panic(err)
	}
	return func(c *echo.Context, ref upstream.BusinessRef) error { return rt.show(h, c, ref) }
}
