package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/session"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// showQuadrant places every business of the portfolio (or of one folder)
// by its latest Z″ against its Pay score change over six months. It reads
// the portfolio score histories the home page loads, with the same rows,
// so the cache shares them; a folder adds its membership.
func (h *Handler) showQuadrant(c *echo.Context) error {
	folderRaw := strings.TrimSpace(c.QueryParam("folder"))
	folderID, folderErr := 0, ""
	if folderRaw != "" {
		if n, err := parseFolderID(folderRaw); err != nil {
			folderErr = "Folder must be a folder id such as 101; showing every business."
		} else {
			folderID = n
		}
	}
	var (
		folders                []upstream.Folder
		members                []upstream.PortfolioBusiness
		pay, z                 upstream.PortfolioScoreHistory
		ferr, merr, perr, zerr error
	)
	rows := upstream.PortfolioQuery{StartRow: 1, EndRow: homeMoveRows}
	secs := []section{
		section{name: "moves", calls: []func(context.Context, Source){
			func(ctx context.Context, src Source) { pay, perr = src.PayScoreHistory(ctx, rows) },
			func(ctx context.Context, src Source) { z, zerr = src.ZScoreHistory(ctx, rows) },
		}},
		one("folders", func(ctx context.Context, src Source) { folders, ferr = src.Folders(ctx) }),
	}
	if folderID > 0 {
		secs = append(secs, one("members", func(ctx context.Context, src Source) {
			members, merr = src.PortfolioBusinesses(ctx, folderID)
		}))
	}
	ld := h.load(c, secs...)
	if err := expiredAmong(ferr, merr, perr, zerr); err != nil {
		return err
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.QuadrantPage{Base: h.base(c, ld, "Two signals", views.NavPortfolio), Folder: folderRaw, Error: folderErr}
		page.Charts = true
		status := http.StatusOK
		if folderErr != "" {
			status, page.Folder = http.StatusBadRequest, ""
		}
		if folderID > 0 {
			page.Folder = strconv.Itoa(folderID)
		}
		// The folder choice is filled first: whatever befalls the chart,
		// the analyst can still switch folders.
		if ferr == nil {
			for _, f := range folders {
				page.Folders = append(page.Folders, views.FolderChoice{ID: strconv.Itoa(f.FolderID), Name: views.FolderLabel(f)})
			}
		} else if page.Folder != "" {
			// Without the folder list the chosen folder is named by its id,
			// so the choice never reads "Every business" over one folder.
			page.Folders = append(page.Folders, views.FolderChoice{ID: page.Folder, Name: "Folder " + page.Folder})
		}
		var keep map[int32]bool
		if folderID > 0 {
			_, known := views.FolderName(folders, folderID)
			switch {
			case errors.Is(merr, upstream.ErrNotFound) && ferr == nil && known:
				// The folder is there, but the service does not list
				// members (an optional operation).
				page.Error, page.Folder = "The credit-risk service does not list the businesses of a folder, so the chart shows every business.", ""
			case errors.Is(merr, upstream.ErrNotFound):
				page.Error, page.Folder, status = "There is no folder "+strconv.Itoa(folderID)+"; showing every business.", "", http.StatusNotFound
			case merr != nil:
				page.Problem = h.sectionProblem(c, merr)
				return max(status, page.Problem.Status), templates.Quadrant(page), nil
			default:
				keep = map[int32]bool{}
				for _, m := range members {
					if m.FolderID == folderID || m.FolderID == 0 {
						keep[m.BusinessID] = true
					}
				}
			}
		}
		if page.Problem = h.sectionProblem(c, errors.Join(perr, zerr)); page.Problem != nil {
			return max(status, page.Problem.Status), templates.Quadrant(page), nil
		}
		v, err := views.PlaceQuadrants(pay, z, keep)
		if err != nil {
			return 0, nil, err
		}
		page.View = v
		page.Capped = max(pay.TotalResults, z.TotalResults) > homeMoveRows
		switch {
		case keep != nil && len(keep) == 0:
			page.Empty = "This folder holds no businesses."
		case keep == nil && len(pay.Businesses) == 0 && len(z.Businesses) == 0:
			page.Empty = "Your portfolio holds no businesses."
		}
		return status, templates.Quadrant(page), nil
	})
}

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
