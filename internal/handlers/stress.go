package handlers

import (
	"context"
	"errors"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/session"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// showStress measures each folder month by month: the share of its
// businesses in Pay zones 1–4 and their median Z″. It reads the portfolio
// score histories the home page loads, with the same rows, so the cache
// shares them; the folders and every membership (PortfolioBusinesses(0))
// say who is in which folder.
func (h *Handler) showStress(c *echo.Context) error {
	var (
		folders                []upstream.Folder
		members                []upstream.PortfolioBusiness
		pay, z                 upstream.PortfolioScoreHistory
		ferr, merr, perr, zerr error
	)
	secs := []section{
		one("members", func(ctx context.Context, src Source) { members, merr = src.PortfolioBusinesses(ctx, 0) }),
		one("folders", func(ctx context.Context, src Source) { folders, ferr = src.Folders(ctx) }),
	}
	// Without members no folder can be measured: once the service has said
	// it lacks them, the histories are not worth a request.
	if h.features.offered(session.Must(c).User, featureMembers) {
		rows := upstream.PortfolioQuery{StartRow: 1, EndRow: homeMoveRows}
		secs = append(secs, section{name: "moves", calls: []func(context.Context, Source){
			func(ctx context.Context, src Source) { pay, perr = src.PayScoreHistory(ctx, rows) },
			func(ctx context.Context, src Source) { z, zerr = src.ZScoreHistory(ctx, rows) },
		}})
	}
	ld := h.load(c, secs...)
	if err := expiredAmong(ferr, merr, perr, zerr); err != nil {
		return err
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.StressPage{Base: h.base(c, ld, "Folder stress", views.NavPortfolio)}
		if errors.Is(merr, upstream.ErrNotFound) {
			h.features.markMissing(session.Must(c).User, featureMembers)
			page.NoMembers = true
			return http.StatusOK, templates.Stress(page), nil
		}
		page.Charts = true
		if page.Problem = h.stressProblem(c, ld, merr, ferr, perr, zerr); page.Problem != nil {
			return page.Problem.Status, templates.Stress(page), nil
		}
		page.Capped = max(pay.TotalResults, z.TotalResults) > homeMoveRows
		v, err := views.FolderStress(folders, members, pay, z)
		if err != nil {
			return 0, nil, err
		}
		page.View = v
		return http.StatusOK, templates.Stress(page), nil
	})
}

// stressProblem is why the page cannot measure the folders yet. Every
// section is needed, so sections left unloaded are offered as one.
func (h *Handler) stressProblem(c *echo.Context, ld *loaded, merr error, errs ...error) *views.Problem {
	if all, ok := ld.allOffered(c); ok {
		p := all.problem()
		p.Message = "Folder stress needs the portfolio's Pay and Z″ histories, the folders and their members; " +
			"what the cache lacks costs " + views.Plural(all.cost, "request") + ", and your account has " +
			views.Plural(all.left, "request") + " left this hour."
		return p
	}
	if merr != nil {
		return h.membersProblem(c, merr)
	}
	return h.sectionProblem(c, errors.Join(errs...))
}
