package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Limits of the scores page's input.
const (
	defaultScoreMonths = 12
	maxScoreMonths     = 36
	maxScoresPage      = 1_000_000
)

// scoresQuery is the scores page's input once checked.
type scoresQuery struct {
	score    views.PortfolioScore
	from, to time.Time // zero: the service's default range
	page     int
	size     int
	// folder narrows the map to one folder's businesses (0: all); worst
	// orders them by their latest score, worst first (see ranked).
	folder int
	worst  bool
}

// ranked reports a view the dashboard orders and pages itself: a folder's
// businesses, or worst first, over the first homeMoveRows of the
// portfolio (the copy the home page reads).
func (sq scoresQuery) ranked() bool { return sq.folder > 0 || sq.worst }

// showScores shows one page of the portfolio's monthly Pay or Z″ scores.
// Refused input gets a message and a default, with status 400; a page past
// the end gets a link to the last page, with status 404; neither is a 500.
func (h *Handler) showScores(c *echo.Context) error {
	sq, notices := parseScoresQuery(c.Request().URL.Query(), h.now())
	pq := upstream.PortfolioQuery{From: sq.from, To: sq.to, StartRow: (sq.page-1)*sq.size + 1, EndRow: sq.page * sq.size}
	if sq.ranked() {
		pq.StartRow, pq.EndRow = 1, homeMoveRows
	}
	var hist upstream.PortfolioScoreHistory
	var members []upstream.PortfolioBusiness
	var err, merr error
	secs := []section{one("scores", func(ctx context.Context, src Source) {
		if sq.score == views.PortfolioZ {
			hist, err = src.ZScoreHistory(ctx, pq)
		} else {
			hist, err = src.PayScoreHistory(ctx, pq)
		}
	})}
	if sq.folder > 0 {
		secs = append(secs, one("members", func(ctx context.Context, src Source) {
			members, merr = src.PortfolioBusinesses(ctx, sq.folder)
		}))
	}
	ld := h.load(c, secs...)
	if errors.Is(err, upstream.ErrSessionExpired) || errors.Is(merr, upstream.ErrSessionExpired) {
		return err
	}
	if err == nil {
		// The team's known scores (issue 26), before ranking pages them.
		if sq.score == views.PortfolioZ {
			h.recordPortfolioScores(c, ld, upstream.PortfolioScoreHistory{}, hist)
		} else {
			h.recordPortfolioScores(c, ld, hist, upstream.PortfolioScoreHistory{})
		}
	}
	if err == nil && merr != nil {
		err = merr
	}
	capped := false
	if err == nil && sq.ranked() {
		capped = hist.TotalResults > homeMoveRows
		hist = views.RankScores(hist, views.MembersOf(members), sq.folder > 0, sq.worst, (sq.page-1)*sq.size, sq.size)
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.ScoresPage{
			Base:    h.base(c, ld, "Portfolio scores", views.NavScores),
			Form:    views.NewScoresForm(sq.score, monthParam(sq.from), monthParam(sq.to), sq.size),
			Notices: notices,
		}
		page.Form.Folder, page.Form.Worst = folderParam(sq.folder), sq.worst
		if capped {
			page.Notices = append(page.Notices, "Only the first "+views.Int(homeMoveRows)+" businesses of the portfolio are ordered here.")
		}
		status := http.StatusOK
		if len(notices) > 0 {
			status = http.StatusBadRequest
		}
		if page.Problem = h.sectionProblem(c, err); page.Problem != nil {
			return max(status, page.Problem.Status), templates.Scores(page), nil
		}
		page.Pager = views.NewPager(sq.page, sq.size, hist.TotalResults, func(n int) string { return scoresURL(sq, n) })
		if page.Pager.PastEnd() {
			page.PastEnd = true
			if status == http.StatusOK {
				status = http.StatusNotFound
			}
			return status, templates.Scores(page), nil
		}
		span := views.MonthSpan{From: sq.from, To: sq.to}
		if sq.from.IsZero() {
			// The service chose the months; show the last year it has data for.
			span, _ = views.LatestSpan(hist, defaultScoreMonths)
		}
		page.Map = views.NewHeatMap(sq.score, hist, span)
		if page.Map.Scored > 0 {
			chart, err := page.Map.Chart("score-heatmap", views.HeatSize(len(page.Map.Rows)))
			if err != nil {
				// The table below holds the same numbers; log and go on without the chart.
				h.log.Error("building the heat map failed", "request_id", middleware.RequestID(c), "err", err)
			} else {
				page.Chart = &chart
				page.Charts = true
			}
		}
		return status, templates.Scores(page), nil
	})
}

// parseScoresQuery checks each parameter on its own, keeping the good ones;
// each refused one yields a message and its default. Months run up to now's
// at most: later ones hold no scores yet.
func parseScoresQuery(q url.Values, now time.Time) (scoresQuery, []string) {
	sq := scoresQuery{score: views.PortfolioPay, page: 1, size: views.PageSizes[0]}
	var notices []string
	switch raw := strings.ToLower(strings.TrimSpace(q.Get("score"))); raw {
	case "", string(views.PortfolioPay):
	case string(views.PortfolioZ):
		sq.score = views.PortfolioZ
	default:
		notices = append(notices, fmt.Sprintf("The score %q is not pay or z; showing Pay scores.", views.Clip(raw, 20)))
	}
	if raw := q.Get("size"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || !slices.Contains(views.PageSizes, n) {
			notices = append(notices, fmt.Sprintf("Rows per page can be 25, 50 or 100, not %q; showing 25.", views.Clip(raw, 20)))
		} else {
			sq.size = n
		}
	}
	if raw := q.Get("page"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxScoresPage {
			notices = append(notices, fmt.Sprintf("The page %q is not a page number; showing the first page.", views.Clip(raw, 20)))
		} else {
			sq.page = n
		}
	}
	from, okFrom := readMonth(q.Get("from"))
	to, okTo := readMonth(q.Get("to"))
	if !okFrom {
		notices = append(notices, fmt.Sprintf("The start month %q is not a month like 2026-01.", views.Clip(q.Get("from"), 20)))
	}
	if !okTo {
		notices = append(notices, fmt.Sprintf("The end month %q is not a month like 2026-12.", views.Clip(q.Get("to"), 20)))
	}
	switch {
	case !from.IsZero() && !to.IsZero() && from.After(to):
		notices = append(notices, "The start month is after the end month; showing the latest 12 months.")
		from, to = time.Time{}, time.Time{}
	case !from.IsZero() && to.IsZero():
		to = from.AddDate(0, defaultScoreMonths-1, 0)
	case from.IsZero() && !to.IsZero():
		from = to.AddDate(0, -(defaultScoreMonths - 1), 0)
	}
	if this := thisMonth(now); to.After(this) {
		if q.Get("to") != "" {
			notices = append(notices, "The end month is after this month, which holds the latest scores; showing up to "+views.MonthOf(this)+".")
		}
		to = this
		if from.After(to) {
			notices = append(notices, "The start month is after this month; showing the latest 12 months.")
			from, to = time.Time{}, time.Time{}
		}
	}
	if !from.IsZero() && from.AddDate(0, maxScoreMonths, 0).Before(to.AddDate(0, 1, 0)) {
		notices = append(notices, fmt.Sprintf("At most %d months fit on the page; showing the %d months up to %s.",
			maxScoreMonths, maxScoreMonths, views.MonthOf(to)))
		from = to.AddDate(0, -(maxScoreMonths - 1), 0)
	}
	sq.from, sq.to = from, to
	if raw := strings.TrimSpace(q.Get("folder")); raw != "" {
		if id, err := parseFolderID(raw); err != nil {
			notices = append(notices, fmt.Sprintf("The folder %q is not a folder id such as 101; showing every business.", views.Clip(raw, 20)))
		} else {
			sq.folder = id
		}
	}
	// Worst first unless the analyst asks for names: triage reads the map
	// from the top.
	sq.worst = true
	switch raw := strings.ToLower(strings.TrimSpace(q.Get("order"))); raw {
	case "", "worst":
	case "name":
		sq.worst = false
	default:
		notices = append(notices, fmt.Sprintf("The order %q is not worst or name; showing them worst first.", views.Clip(raw, 20)))
	}
	return sq, notices
}

// folderParam is a folder id for the form, "" for none.
func folderParam(id int) string {
	if id == 0 {
		return ""
	}
	return strconv.Itoa(id)
}

// scoresURL links to another page of the same view.
func scoresURL(sq scoresQuery, page int) string {
	q := url.Values{}
	q.Set("score", string(sq.score))
	if !sq.from.IsZero() {
		q.Set("from", monthParam(sq.from))
		q.Set("to", monthParam(sq.to))
	}
	q.Set("size", strconv.Itoa(sq.size))
	q.Set("page", strconv.Itoa(page))
	if sq.folder > 0 {
		q.Set("folder", strconv.Itoa(sq.folder))
	}
	q.Set("order", "name")
	if sq.worst {
		q.Set("order", "worst")
	}
	return "/portfolio/scores?" + q.Encode()
}
