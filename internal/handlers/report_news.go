package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

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
