package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// reportTab is one tab of the business report, as pkgsite's unitTabs
// rows are: everything the dashboard does with a tab (show it live, load
// it for a dated copy or a decision's evidence, read a copy back, print
// it on a credit sheet) starts from its row. A tab is its row here and its
// file (tab_<name>.go); see "How to add a report tab" in docs/architecture.md.
type reportTab struct {
	tab views.BusinessTab
	// load is the tab with its controls' values (a query's, a form's, a
	// copy's), ready to load or to read a copy back into.
	load func(value func(string) string) tabPage
	// show serves the live tab at its literal routes.
	show func(h *Handler, c *echo.Context, ref upstream.BusinessRef) error
}

// reportTabs are the report's tabs, in the order views shows them.
var reportTabs = []reportTab{
	{tab: views.TabOverview, load: newOverviewTab, show: (*Handler).showBusinessOverview},
	{tab: views.TabPayments, load: newPaymentsTab, show: (*Handler).showBusinessPayments},
	{tab: views.TabFinancials, load: newFinancialsTab, show: (*Handler).showBusinessFinancials},
	{tab: views.TabOfficers, load: newOfficersTab, show: (*Handler).showBusinessOfficers},
}

// tabPage is one tab: its calls and what they answered, live or read back
// from a dated copy. A copy keeps the tab's data as JSON and renders it
// again with the live tab's own code and no call.
type tabPage interface {
	// sections are the tab's calls, the header's first.
	sections(ref upstream.BusinessRef) []section
	// header is what the header's calls answered (or the copy kept).
	header() *headerData
	// errs are the tab's own calls' errors.
	errs() []error
	// kept is the tab's data as a dated copy keeps it (encoded as JSON),
	// with the header's answers and the controls' values.
	kept() any
	// restore reads a kept copy back: its data, header and controls.
	restore(data []byte) error
	// value is one of the tab's controls as it was shown with, "" when
	// unset, so today's data is loaded the same way to compare.
	value(name string) string
	// facts are what a comparison of two copies compares.
	facts() []views.Fact
	// page renders a copy with today's templates; asOf is its fetch time.
	page(h *Handler, c *echo.Context, base views.Base, header views.BusinessHeader, asOf time.Time) (templ.Component, error)
	// sheet fills the tab's part of a credit sheet from a copy.
	sheet(s *views.CreditSheet, src *views.SheetSource, asOf time.Time) error
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

// noControls is a form without values: each control's default.
func noControls(string) string { return "" }

// readCopy reads a dated copy of tab (a snapshot or a decision's
// evidence) back into its tab.
func readCopy(tab views.BusinessTab, data []byte) (tabPage, error) {
	rt, err := lookupTab(tab)
	if err != nil {
		return nil, err
	}
	l := rt.load(noControls)
	if err := l.restore(data); err != nil {
		return nil, err
	}
	return l, nil
}

// loadTab reads a tab of business id through the cache within the hourly
// budget, as the tab itself does, and returns it only when every call
// answered: a copy or a comparison of half a tab would mislead.
func (h *Handler) loadTab(c *echo.Context, tab views.BusinessTab, id int32, value func(string) string) (tabPage, *loaded, error) {
	rt, err := lookupTab(tab)
	if err != nil {
		return nil, nil, err
	}
	l := rt.load(value)
	ld := h.load(c, l.sections(upstream.ByID(id))...)
	hd := l.header()
	if err := hd.pageError(l.errs()...); err != nil {
		return nil, ld, err
	}
	identErr := hd.identErr
	if errors.Is(identErr, upstream.ErrNotFound) {
		identErr = nil // not offered by the service: the copy names the id
	}
	if err := errors.Join(append([]error{identErr, hd.naicsErr}, l.errs()...)...); err != nil {
		return nil, ld, err
	}
	return l, ld, nil
}

// copyHeader is the header's service data, kept by every tab's copy. Its
// field names are those overview copies were first saved with, so those
// still open.
type copyHeader struct {
	Ident *upstream.Identification `json:"ident,omitempty"`
	NAICS []upstream.NAICSCode     `json:"naics"`
}

// headerCopy is what a copy keeps of the header's answers.
func headerCopy(hd *headerData) copyHeader {
	return copyHeader{Ident: hd.identification(), NAICS: hd.naics}
}

// restoreCopy decodes a copy's data into d and its header's answers into
// hd; an identification the copy lacks was not offered by the service.
func restoreCopy(data []byte, d any, ch *copyHeader, hd *headerData) error {
	if err := json.Unmarshal(data, d); err != nil {
		return err
	}
	*hd = headerData{naics: ch.NAICS}
	if ch.Ident != nil {
		hd.ident = *ch.Ident
	} else {
		hd.identErr = upstream.ErrNotFound
	}
	return nil
}

// maxNewsFolders bounds the folders whose news a report looks through.
const maxNewsFolders = 50

// reportNews finds the stories naming the business among the news the
// analyst's pages have already fetched: every folder's news and the
// industry news, read from the cache alone. It never asks the service (an
// Ordinary account's budget is for the report itself), so a feed not
// fetched lately is listed as one to open instead. What it read joins the
// page's key, so the report changes once a feed arrives; the section's
// view is built with the header (newsSection), on a kept page never.
func (h *Handler) reportNews(c *echo.Context, ld *loaded, hd *headerData) {
	ctx := c.Request().Context()
	pr := ld.rd.Probe(nil)
	var (
		feeds  []views.NewsFeed
		unread []views.NavLink
	)
	if folders, err := pr.Folders(ctx); err == nil {
		for _, f := range folders[:min(len(folders), maxNewsFolders)] {
			link := views.NavLink{URL: "/portfolio/folders/" + strconv.Itoa(f.FolderID),
				Label: "Folder “" + views.FolderLabel(f) + "”"}
			items, err := pr.FolderNews(ctx, f.FolderID)
			if err != nil {
				unread = append(unread, link)
				continue
			}
			feeds = append(feeds, views.NewsFeed{Label: link.Label, URL: link.URL, Items: items})
		}
	} else {
		unread = append(unread, views.NavLink{URL: "/portfolio", Label: "Your folders"})
	}
	industry := views.NavLink{URL: "/news/industry", Label: "Industry news"}
	if items, err := pr.IndustryNews(ctx); err == nil {
		feeds = append(feeds, views.NewsFeed{Label: industry.Label, URL: industry.URL, Items: items})
	} else {
		unread = append(unread, industry)
	}
	rep := pr.Report()
	ld.also, ld.alsoDeps, ld.alsoLost = rep.Fingerprint, rep.Deps, rep.Deps == nil
	hd.stories = &storiesRead{feeds: feeds, unread: unread}
}

// storiesRead are the feeds reportNews read, and those it could not.
type storiesRead struct {
	feeds  []views.NewsFeed
	unread []views.NavLink
}

// newsSection is the report's "News and events" section from what
// reportNews read; nil when it read nothing (a dated copy).
func (h *Handler) newsSection(hd *headerData) *views.ReportNews {
	if hd.stories == nil {
		return nil
	}
	name := ""
	if hd.identErr == nil {
		name = hd.ident.BusinessName
	}
	rn := views.NewReportNews(name, hd.stories.feeds, hd.stories.unread, h.now())
	return &rn
}

// showIndustryNews shows the top stories of the user's industry (at most
// 20), rendered like folder news.
func (h *Handler) showIndustryNews(c *echo.Context) error {
	var items []upstream.NewsItem
	var err error
	ld := h.load(c, one("news", func(ctx context.Context, src Source) { items, err = src.IndustryNews(ctx) }))
	switch {
	case errors.Is(err, upstream.ErrSessionExpired):
		return err
	case errors.Is(err, upstream.ErrNotFound):
		err = nil // no industry news offered: an empty list says so
	}
	if err == nil {
		h.learnDefaults(c, h.teamOf(c, ld), "Industry news", "/news/industry", items)
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.NewsPage{Base: h.base(c, ld, "Industry news", views.NavNews)}
		status := http.StatusOK
		if page.Problem = h.sectionProblem(c, err); page.Problem != nil {
			status = page.Problem.Status
		}
		page.Items = views.NewsItems(items, h.now(), views.MaxIndustryNews)
		return status, templates.IndustryNews(page), nil
	})
}
