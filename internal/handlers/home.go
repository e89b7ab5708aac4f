package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Search limits: what a person types, and how many matches a page lists.
const (
	maxSearchLen  = 100
	searchResults = 20
)

// homeMoveRows is how many businesses (by name) the home page compares for
// score moves: a page the service builds in one answer.
const homeMoveRows = 1000

// showHome shows the portfolio at a glance (folders, biggest score moves,
// industry headlines), the business lookup and, with ?q=, businesses found
// by name. Every section's call runs at once and fails on its own.
func (h *Handler) showHome(c *echo.Context) error {
	page := views.HomePage{Base: h.base(c, "Home", views.NavHome), SearchOffered: !h.searchMissing.Load()}
	page.Lookup.By = "id"
	s := mustSession(c)
	var (
		folders                      []upstream.Folder
		pay, z                       upstream.PortfolioScoreHistory
		news                         []upstream.NewsItem
		ferr, perr, zerr, nerr, serr error
	)
	rows := upstream.PortfolioQuery{StartRow: 1, EndRow: homeMoveRows}
	var secs []section
	if q := strings.TrimSpace(c.QueryParam("q")); q != "" && page.SearchOffered {
		page.Query = q
		// Typed by the user, so always loaded; only this call touches page
		// while the others run.
		secs = append(secs, section{name: "search", always: true,
			calls: []func(context.Context){func(ctx context.Context) { serr = h.search(ctx, c, &page) }}})
	}
	secs = append(secs,
		one("folders", func(ctx context.Context) { folders, ferr = h.svc.Folders(ctx, s.Key) }),
		section{name: "moves", calls: []func(context.Context){
			func(ctx context.Context) { pay, perr = h.svc.PayScoreHistory(ctx, s.Key, rows) },
			func(ctx context.Context) { z, zerr = h.svc.ZScoreHistory(ctx, s.Key, rows) },
		}},
		one("headlines", func(ctx context.Context) { news, nerr = h.svc.IndustryNews(ctx, s.Key) }),
	)
	if h.loadSections(c, s.Key, secs...) {
		return nil
	}
	if err := expiredAmong(serr, ferr, perr, zerr, nerr); err != nil {
		return err
	}
	status := http.StatusOK
	if page.SearchProblem != nil && page.SearchProblem.Status == http.StatusBadRequest {
		status = http.StatusBadRequest
	}
	page.FoldersProblem = h.sectionProblem(c, ferr)
	page.Folders = views.FolderRows(folders, nil, false)
	page.MovesProblem = h.sectionProblem(c, errors.Join(perr, zerr))
	page.Moves = views.BiggestMoves(pay, z, views.MaxMoves)
	if max(pay.TotalResults, z.TotalResults) > homeMoveRows {
		page.MovesNote = "Only the first " + views.Int(homeMoveRows) + " businesses by name are compared."
	}
	if !errors.Is(nerr, upstream.ErrNotFound) { // no industry news offered: nothing to say
		page.HeadlinesProblem = h.sectionProblem(c, nerr)
	}
	page.Headlines = views.NewsItems(news, h.now(), views.HomeHeadlines)
	return h.render(c, status, templates.Home(page))
}

// search fills the page's results, or a message in their place.
func (h *Handler) search(ctx context.Context, c *echo.Context, page *views.HomePage) error {
	if utf8.RuneCountInString(page.Query) > maxSearchLen {
		page.SearchProblem = &views.Problem{Status: http.StatusBadRequest, Title: "Search text too long",
			Message: "Search for at most 100 characters of a business name."}
		return nil
	}
	s := mustSession(c)
	found, err := h.svc.Search(ctx, s.Key, page.Query, searchResults)
	page.Results, page.SearchProblem = nil, nil
	switch {
	case errors.Is(err, cache.ErrNotCached):
		return nil // only looked in the cache; the search itself follows
	case errors.Is(err, upstream.ErrNotFound):
		// The service does not offer search: hide it from now on.
		h.searchMissing.Store(true)
		page.SearchOffered = false
		return nil
	case errors.Is(err, upstream.ErrSessionExpired):
		return err
	case err != nil:
		page.SearchProblem = h.sectionProblem(c, err)
		return nil
	}
	page.Results = views.SearchRows(found)
	return nil
}

// openBusiness turns the lookup form into the business page's URL.
func (h *Handler) openBusiness(c *echo.Context) error {
	by := c.QueryParam("by")
	value := strings.TrimSpace(c.QueryParam("value"))
	target, err := lookupTarget(by, value)
	if err == nil {
		return redirect(c, target)
	}
	page := views.HomePage{Base: h.base(c, "Home", views.NavHome), SearchOffered: !h.searchMissing.Load()}
	page.Lookup = views.LookupForm{By: by, Value: value, Error: err.Error()}
	if by != "customer" && by != "supplier" {
		page.Lookup.By = "id"
	}
	return h.render(c, http.StatusBadRequest, templates.Home(page))
}

// lookupTarget validates what was typed and builds the page URL; its errors
// are messages for people.
func lookupTarget(by, value string) (string, error) {
	if value == "" {
		return "", errors.New("Enter a business id, customer id or supplier id.")
	}
	var ref upstream.BusinessRef
	var prefix string
	switch by {
	case "", "id":
		r, err := upstream.ParseID(value)
		if err != nil {
			return "", errors.New("A business id is a whole number, such as 1001.")
		}
		ref, prefix = r, "/businesses/"
	case "customer":
		ref, prefix = upstream.ByCustomerID(value), "/customers/"
	case "supplier":
		ref, prefix = upstream.BySupplierID(value), "/suppliers/"
	default:
		return "", errors.New("Choose whether you typed a business id, customer id or supplier id.")
	}
	if err := ref.Validate(); err != nil {
		return "", errors.New("Customer and supplier ids are codes of up to 64 characters without spaces, such as S-1001.")
	}
	if ref.Kind() == upstream.RefID {
		return prefix + value, nil
	}
	return prefix + url.PathEscape(value), nil
}
