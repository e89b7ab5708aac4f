package handlers

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// showIndustryNews shows the top stories of the user's industry (at most
// 20), rendered like folder news.
func (h *Handler) showIndustryNews(c *echo.Context) error {
	s := mustSession(c)
	var items []upstream.NewsItem
	var err error
	if h.loadSections(c, s.Key, one("news", func(ctx context.Context) { items, err = h.svc.IndustryNews(ctx, s.Key) })) {
		return nil
	}
	switch {
	case errors.Is(err, upstream.ErrSessionExpired):
		return err
	case errors.Is(err, upstream.ErrNotFound):
		err = nil // no industry news offered: an empty list says so
	}
	page := views.NewsPage{Base: h.base(c, "Industry news", views.NavNews)}
	status := http.StatusOK
	if page.Problem = h.sectionProblem(c, err); page.Problem != nil {
		status = page.Problem.Status
	}
	page.Items = views.NewsItems(items, h.now(), views.MaxIndustryNews)
	return h.render(c, status, templates.IndustryNews(page))
}
