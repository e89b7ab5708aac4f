package handlers

import (
	"context"
	"errors"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

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
