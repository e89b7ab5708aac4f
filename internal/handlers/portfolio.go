package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/credit"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// showPortfolio lists the folders, with member counts where the service
// lists folder members, and the export of the whole portfolio.
func (h *Handler) showPortfolio(c *echo.Context) error {
	showWithout(c, "export")
	var (
		folders    []upstream.Folder
		members    []upstream.PortfolioBusiness
		ferr, merr error
	)
	ld := h.load(c,
		one("folders", func(ctx context.Context, src Source) { folders, ferr = src.Folders(ctx) }),
		one("counts", func(ctx context.Context, src Source) { members, merr = src.PortfolioBusinesses(ctx, 0) }),
	)
	if err := expiredAmong(ferr, merr); err != nil {
		return err
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.PortfolioPage{Base: h.base(c, ld, "Portfolio", views.NavPortfolio), Export: views.NewExportForm(0)}
		page.Flash = h.exportFlash(c)
		page.FoldersProblem = h.sectionProblem(c, ferr)
		switch {
		case merr == nil:
			page.ShowCounts = true
		case errors.Is(merr, upstream.ErrNotFound):
			// The service does not list folder members: no counts, no error,
			// and no asking again for a while.
			h.features.markMissing(session.Must(c).User, featureMembers)
		default:
			page.CountsProblem = h.membersProblem(c, merr)
		}
		page.Folders = views.FolderRows(folders, members, page.ShowCounts)
		return http.StatusOK, templates.Portfolio(page), nil
	})
}

// showFolder shows one folder: its news, its businesses where the service
// lists them, and its export. The three calls run at once.
func (h *Handler) showFolder(c *echo.Context) error {
	id, err := parseFolderID(c.Param("folderId"))
	if err != nil {
		return err
	}
	showWithout(c, "export")
	var (
		folders                      []upstream.Folder
		news                         []upstream.NewsItem
		members                      []upstream.PortfolioBusiness
		pay, z                       upstream.PortfolioScoreHistory
		ferr, nerr, merr, perr, zerr error
	)
	// The scores are the portfolio histories the home page and the watch
	// list read (the same copy), within the budget like any section.
	rows := upstream.PortfolioQuery{StartRow: 1, EndRow: homeMoveRows}
	ld := h.load(c,
		one("news", func(ctx context.Context, src Source) { news, nerr = src.FolderNews(ctx, id) }),
		one("businesses", func(ctx context.Context, src Source) { members, merr = src.PortfolioBusinesses(ctx, id) }),
		one("folders", func(ctx context.Context, src Source) { folders, ferr = src.Folders(ctx) }),
		section{name: "scores", calls: []func(context.Context, Source){
			func(ctx context.Context, src Source) { pay, perr = src.PayScoreHistory(ctx, rows) },
			func(ctx context.Context, src Source) { z, zerr = src.ZScoreHistory(ctx, rows) },
		}},
	)
	if err := expiredAmong(ferr, nerr, merr, perr, zerr); err != nil {
		return err
	}
	name, known := views.FolderName(folders, id)
	switch {
	case ferr == nil && !known, errors.Is(nerr, upstream.ErrNotFound):
		return folderNotFound(id)
	case !known:
		name = "Folder " + strconv.Itoa(id) // the folder list failed; the rest may not have
	}
	if nerr == nil {
		// A filing in the folder's news puts the team's accounts in default.
		h.learnDefaults(c, h.teamOf(c, ld), "Folder “"+name+"” news", "/portfolio/folders/"+strconv.Itoa(id), news)
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		// Only a page built hands its scores over and reads its marks: a
		// kept one was built from the same copies and workspace.
		tri, err := h.folderTriage(c, ld, members, pay, z, errors.Join(perr, zerr))
		if err != nil {
			return 0, nil, err
		}
		page := views.FolderPage{Base: h.base(c, ld, name, views.NavPortfolio), Name: name, Export: views.NewExportForm(id)}
		page.Flash = h.exportFlash(c)
		page.NewsProblem = h.sectionProblem(c, nerr)
		page.News, page.NewsPager = folderNews(news, id, c.QueryParam("news"), h.now())
		// The folder exists, so a 404 here means the service does not list
		// folder members: the section is left out.
		page.BusinessesOffered = !errors.Is(merr, upstream.ErrNotFound)
		if !page.BusinessesOffered {
			h.features.markMissing(session.Must(c).User, featureMembers)
		} else {
			page.BusinessesProblem = h.membersProblem(c, merr)
			page.Businesses, page.MoreBusinesses = views.FolderBusinesses(members, views.MaxFolderBusinesses)
			page.Triage = tri.page(views.MembersOf(members), "/portfolio/folders/"+strconv.Itoa(id)+"#folder-businesses-title")
			page.Triage.ScoresProblem = h.sectionProblem(c, tri.err)
		}
		return http.StatusOK, templates.Folder(page), nil
	})
}

// folderNews is the page of the folder's stories asked for by ?news=
// (from 1; anything unreadable is the first page, anything past the end the
// last), views.FolderNewsPerPage of them, and the links to the others.
func folderNews(news []upstream.NewsItem, folderID int, raw string, now time.Time) ([]views.NewsItem, views.Pager) {
	size := views.FolderNewsPerPage
	last := max((len(news)+size-1)/size, 1)
	n, err := strconv.Atoi(raw) // too many digits: the largest int, so the last page
	if (err != nil && !errors.Is(err, strconv.ErrRange)) || n < 1 {
		n = 1
	}
	n = min(n, last)
	base := "/portfolio/folders/" + strconv.Itoa(folderID)
	pager := views.NewPager(n, size, len(news), func(p int) string {
		if p == 1 {
			return base + "#folder-news-title"
		}
		return base + "?news=" + strconv.Itoa(p) + "#folder-news-title"
	})
	if pager.FirstRow == 0 {
		return nil, pager
	}
	return views.NewsItems(news[pager.FirstRow-1:pager.LastRow], now, 0), pager
}

// membersProblem describes a failed member listing. An answer the client
// could not read is most often one too large for its size limit (a huge
// portfolio lists every membership): say so rather than "not answering".
func (h *Handler) membersProblem(c *echo.Context, err error) *views.Problem {
	p := h.sectionProblem(c, err)
	if p != nil && errors.Is(err, upstream.ErrMalformed) {
		p.Title = "The businesses could not be listed"
		p.Message = "The service's list of businesses could not be read; it may be too large to show here. The export has every business."
		p.RetryURL = ""
	}
	return p
}

// parseFolderID reads a folder id from a path or query: a positive int32.
func parseFolderID(raw string) (int, error) {
	id, err := strconv.ParseInt(raw, 10, 32)
	// Spelled as the service spells it: "+101" or "0101" would give one
	// folder several addresses, and several entries in the page cache.
	if err != nil || id < 1 || strconv.FormatInt(id, 10) != raw {
		return 0, badInput("A folder id is a positive whole number without a sign or leading zeros, such as 101, not %q.", views.Clip(raw, 40))
	}
	return int(id), nil
}

// folderNotFound is the error for a folder the portfolio does not have; the
// error handler shows it as the 404 page.
func folderNotFound(id int) error {
	return &upstream.Error{Op: "Portfolio/Folders", Status: http.StatusNotFound, Code: upstream.CodeFolderNotFound,
		Message: "There is no folder " + strconv.Itoa(id) + " in your portfolio.", Kind: upstream.ErrNotFound}
}

// expiredAmong returns the first error that ended the session: then the
// whole page goes back to sign-in instead of showing section errors.
func expiredAmong(errs ...error) error {
	for _, err := range errs {
		if errors.Is(err, upstream.ErrSessionExpired) {
			return err
		}
	}
	return nil
}

// triage is what a folder's triage table is built from: the latest Pay
// and Z″ of the portfolio histories, the Risk and DBT last seen on
// reports, and the order asked for.
type triage struct {
	pay, z map[int32]credit.Latest
	seen   map[store.SeenKey]store.Seen
	err    error // the histories' failure, if any
	by     views.TriageSort
}

// folderTriage reads what the triage table needs beyond the page's
// sections: the last-seen marks of the folder's members, from the
// workspace. Portfolio scores that arrived check the alert rules, as on
// the watch list, and the header's counts are read again after them. It
// runs only when the folder's page is built.
func (h *Handler) folderTriage(c *echo.Context, ld *loaded, members []upstream.PortfolioBusiness, pay, z upstream.PortfolioScoreHistory, err error) (triage, error) {
	t := triage{err: err, by: views.ReadTriageSort(c.QueryParam("sort"))}
	if err == nil {
		t.pay, t.z = credit.PortfolioLatest(pay), credit.PortfolioLatest(z)
		h.portfolioArrived(c, ld, pay, z)
		ld.arrived()
	}
	ids := idsOf(members, func(m upstream.PortfolioBusiness) int32 { return m.BusinessID })
	seen, serr := h.store.LastSeen(h.wsCtx(c), h.analyst(c), ids)
	if serr != nil {
		return t, workspaceError(serr)
	}
	t.seen = seen
	return t, nil
}

// page is the triage table of members, sorted, its headings linking to
// base with each order.
func (t triage) page(members []views.Member, base string) views.Triage {
	missing := "not loaded"
	if t.err == nil {
		missing = "no score in the portfolio history"
	}
	rows := views.TriageRows(members, t.pay, t.z, t.seen, missing, t.by)
	tr := views.Triage{Columns: views.TriageColumns(base, t.by), Sort: t.by}
	if len(rows) > views.MaxFolderBusinesses {
		tr.More = len(rows) - views.MaxFolderBusinesses
		rows = rows[:views.MaxFolderBusinesses]
	}
	tr.Rows = rows
	return tr
}
