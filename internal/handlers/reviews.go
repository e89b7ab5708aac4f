package handlers

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/labstack/echo/v5"

	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// scheduled is an account with its next review.
type scheduled struct {
	f       *credit.Figures // the team's kept figures: read, never change
	next    time.Time
	why     string
	last    *store.Review
	changed time.Time
	// year is the newest statement year known of the business (0 none).
	year int
}

// reviewBook is what an account's next review is worked out from: the
// latest reviews, limit changes and statement years of the team.
type reviewBook struct {
	reviews map[string]store.Review
	changes map[string]time.Time
	years   map[int32]int
	now     time.Time
}

// reviewBook reads the team's reviews, limit changes and statement years.
func (h *Handler) reviewBook(ctx context.Context, a store.Analyst) (reviewBook, error) {
	b := reviewBook{now: h.now()}
	var err error
	if b.reviews, err = h.store.LastReviews(ctx, a); err != nil {
		return b, accountsError(err)
	}
	if b.changes, err = h.store.LastLimitChanges(ctx, h.service); err != nil {
		return b, accountsError(err)
	}
	if b.years, err = h.store.StatementYears(ctx, a); err != nil {
		return b, accountsError(err)
	}
	return b, nil
}

// of is account f with its next review.
func (b reviewBook) of(f *credit.Figures) scheduled {
	s := scheduled{f: f, changed: b.changes[f.Account.Account]}
	var last *credit.LastReview
	if r, ok := b.reviews[f.Account.Account]; ok {
		s.last = &r
		last = &credit.LastReview{At: r.At, Band: r.Band, Over90: r.Over90, StatementYear: r.StatementYear,
			Outcome: r.Outcome, By: r.By, Note: r.Note}
	}
	s.year = b.years[f.BusinessID]
	s.next, s.why = credit.NextReview(last, f.Band, over90Share(*f), s.year, b.now)
	return s
}

// schedule is every account's next review, worked out from the newest
// ledger, the team's known scores and the latest reviews. It is kept for
// the team's version (reviews, limits and scores move it) and the day
// (a next review is "today" at the latest): at 50,000 accounts working
// it out took about a second of CPU and 200 MB of garbage a page, so
// one analyst's /reviews in a loop slowed everyone's pages many times
// over (make loadtest, figure 7). The slice is shared: read it only.
func (h *Handler) schedule(c *echo.Context) ([]scheduled, error) {
	ctx, a := c.Request().Context(), h.analyst(c)
	ts, err := h.teamNow(ctx, a)
	if err != nil {
		return nil, accountsError(err)
	}
	today := h.now().UTC().Format(store.DateLayout)
	return keptTeam(ctx, h, ts, "schedule", today, func(ctx context.Context) ([]scheduled, int, error) {
		figs, err := h.teamFiguresAt(ctx, ts, "")
		if err != nil {
			return nil, 0, accountsError(err)
		}
		book, err := h.reviewBook(ctx, a)
		if err != nil {
			return nil, 0, err
		}
		out := make([]scheduled, 0, len(figs))
		bytes := len(figs) * int(unsafe.Sizeof(scheduled{}))
		for i := range figs {
			s := book.of(&figs[i])
			bytes += len(s.why)
			out = append(out, s)
		}
		// By date, then account: the same order on every request, so a
		// list's pages neither repeat nor skip an account.
		slices.SortFunc(out, func(a, b scheduled) int {
			return cmp.Or(a.next.Compare(b.next), strings.Compare(a.f.Account.Account, b.f.Account.Account))
		})
		return out, bytes, nil
	})
}

// over90Share is the share of the balance over 90 days past due.
func over90Share(f credit.Figures) float64 {
	if f.Balance <= 0 {
		return 0
	}
	return f.DaysOver90 / f.Balance
}

// reviewPath is an account's review form.
func reviewPath(account string) string { return "/accounts/" + url.PathEscape(account) + "/review" }

// row is the account as /reviews shows it.
func (s scheduled) row() views.ReviewRow {
	r := views.ReviewRow{Account: s.f.Account.Account, Name: s.f.Name, Band: views.Dash, Next: views.Date(s.next),
		NextISO: s.next.Format(store.DateLayout), Why: s.why, Last: "never", URL: reviewPath(s.f.Account.Account)}
	if s.f.Band > 0 {
		r.Band = strconv.Itoa(s.f.Band)
	}
	if s.last != nil {
		r.Last = s.last.Outcome + " by " + s.last.By + " on " + views.Date(s.last.At)
	}
	if !s.changed.IsZero() {
		r.LimitChanged = views.Date(s.changed)
	}
	return r
}

// showReviews is /reviews: overdue, due this week, upcoming, and limits
// unchanged for over twelve months, each list paged on its own
// (?overdue=, ?week=, ?upcoming=, ?unchanged=): at 50,000 accounts the
// page holds at most four pages of reviewsPageSize rows. The kept
// schedule is sorted by next review, so the first three lists are runs
// of it found by search, and the fourth is counted and only its page
// picked out: a page copies no list of the team (each copy was about
// 2 MB of garbage a page at 50,000 accounts, figure 7's /reviews flood).
func (h *Handler) showReviews(c *echo.Context) error {
	all, err := h.schedule(c)
	if err != nil {
		return err
	}
	q := c.QueryParams()
	page := reviewLists(q, all, h.now())
	page.Base = h.base(c, nil, "Reviews", views.NavAccounts)
	if a := q.Get("reviewed"); a != "" {
		page.Flash = "Review of account " + views.Clip(a, 64) + " recorded; its next review is scheduled."
	}
	return h.render(c, http.StatusOK, templates.Reviews(page))
}

// reviewLists is the pages of the four lists of /reviews that q asks
// for, of the schedule all (sorted by next review) at now.
func reviewLists(q url.Values, all []scheduled, now time.Time) views.ReviewsPage {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	week, yearAgo := today.AddDate(0, 0, 7), now.AddDate(-1, 0, 0)
	before := func(t time.Time) int {
		i, _ := slices.BinarySearchFunc(all, t, func(s scheduled, t time.Time) int {
			if s.next.Before(t) {
				return -1
			}
			return 1
		})
		return i
	}
	w, u := before(today), before(week)
	stale := func(s *scheduled) bool {
		return !s.changed.IsZero() && s.changed.Before(yearAgo) && s.f.Account.Limit != nil
	}
	unchanged := 0
	for i := range all {
		if stale(&all[i]) {
			unchanged++
		}
	}
	return views.ReviewsPage{
		Overdue:  reviewSection(q, "overdue", w, runRows(all[:w])),
		Week:     reviewSection(q, "week", u-w, runRows(all[w:u])),
		Upcoming: reviewSection(q, "upcoming", len(all)-u, runRows(all[u:])),
		Unchanged: reviewSection(q, "unchanged", unchanged, func(first, last int) []views.ReviewRow {
			var rows []views.ReviewRow
			n := 0
			for i := range all {
				if !stale(&all[i]) {
					continue
				}
				if n++; n >= first {
					rows = append(rows, all[i].row())
				}
				if n == last {
					break
				}
			}
			return rows
		}),
	}
}

// runRows is the rows first to last (from 1) of a run of the schedule.
func runRows(run []scheduled) func(first, last int) []views.ReviewRow {
	return func(first, last int) []views.ReviewRow {
		rows := make([]views.ReviewRow, 0, last-first+1)
		for i := range run[first-1 : last] {
			rows = append(rows, run[first-1+i].row())
		}
		return rows
	}
}

// reviewsPageSize is how many rows each list of /reviews shows at once.
const reviewsPageSize = 50

// reviewSections are the lists of /reviews, each paged by the query
// parameter of its name.
var reviewSections = []string{"overdue", "week", "upcoming", "unchanged"}

// reviewSection is the page of list name, of n accounts, that the query
// asks for, its rows from rows (first to last, counted from 1). Its
// links are built from "/reviews" and the lists' page numbers only, so
// they stay on this site whatever else the address held, and keep the
// other lists where they were.
func reviewSection(q url.Values, name string, n int, rows func(first, last int) []views.ReviewRow) views.ReviewSection {
	p, _ := strconv.Atoi(q.Get(name))
	pager := views.NewPager(p, reviewsPageSize, n, func(p int) string {
		v := url.Values{}
		for _, s := range reviewSections {
			if k, err := strconv.Atoi(q.Get(s)); err == nil && k > 1 && s != name {
				v.Set(s, strconv.Itoa(k))
			}
		}
		if p > 1 {
			v.Set(name, strconv.Itoa(p))
		}
		if len(v) == 0 {
			return "/reviews#" + name
		}
		return "/reviews?" + v.Encode() + "#" + name
	})
	sec := views.ReviewSection{Pager: pager}
	if pager.FirstRow > 0 {
		sec.Rows = rows(pager.FirstRow, pager.LastRow)
	}
	return sec
}

// reviewed finds the route's account in the schedule.
func (h *Handler) reviewed(c *echo.Context) (scheduled, error) {
	account, err := url.PathUnescape(c.Param("account"))
	if err != nil {
		return scheduled{}, echo.ErrNotFound
	}
	all, err := h.schedule(c)
	if err != nil {
		return scheduled{}, err
	}
	for _, s := range all {
		if s.f.Account.Account == account {
			return s, nil
		}
	}
	return scheduled{}, echo.ErrNotFound
}

// showReview is an account's review form with its schedule.
func (h *Handler) showReview(c *echo.Context) error {
	s, err := h.reviewed(c)
	if err != nil {
		return err
	}
	return h.reviewPage(c, s, http.StatusOK, "", "", "", "")
}

func (h *Handler) reviewPage(c *echo.Context, s scheduled, status int, outcome, note, outcomeErr, noteErr string) error {
	p := views.ReviewPage{Row: s.row(), Action: reviewPath(s.f.Account.Account), Outcome: outcome, Note: note,
		OutcomeError: outcomeErr, NoteError: noteErr, Outcomes: store.ReviewOutcomes}
	p.Owner = &views.OwnerForm{Action: ownerPath(s.f.Account.Account), Current: s.f.Owner}
	p.Base = h.base(c, nil, "Review of account "+s.f.Account.Account, views.NavAccounts)
	return h.render(c, status, templates.Review(p))
}

// reviewPageOwner is the account's page with its owner form refused:
// what was typed and why (the review form as new).
func (h *Handler) reviewPageOwner(c *echo.Context, s scheduled, status int, owner, problem string) error {
	p := views.ReviewPage{Row: s.row(), Action: reviewPath(s.f.Account.Account), Outcomes: store.ReviewOutcomes,
		Owner: &views.OwnerForm{Action: ownerPath(s.f.Account.Account), Current: s.f.Owner, Value: owner, Error: problem}}
	p.Base = h.base(c, nil, "Review of account "+s.f.Account.Account, views.NavAccounts)
	return h.render(c, status, templates.Review(p))
}

// submitReview records a review (logged) and reschedules the account;
// a bad outcome or note comes back with what was typed (422).
func (h *Handler) submitReview(c *echo.Context) error {
	s, err := h.reviewed(c)
	if err != nil {
		return err
	}
	outcome := views.Clip(strings.TrimSpace(c.FormValue("outcome")), 20)
	note := strings.TrimSpace(c.FormValue("note"))
	outcomeErr, noteErr := "", ""
	if !slices.Contains(store.ReviewOutcomes, outcome) {
		outcomeErr = "Choose keep, reduce, hold or increase."
	}
	if note == "" {
		noteErr = "Write what the review found: the note is required, and a hold is shown with it on the worklist."
	}
	if utf8.RuneCountInString(note) > store.MaxRequestReasonLen {
		noteErr = "Keep the note to 2,000 characters."
		note = string([]rune(note)[:store.MaxRequestReasonLen+100])
	}
	if outcomeErr != "" || noteErr != "" {
		return h.reviewPage(c, s, http.StatusUnprocessableEntity, outcome, note, outcomeErr, noteErr)
	}
	_, err = h.store.RecordReview(c.Request().Context(), h.analyst(c), store.Review{Account: s.f.Account.Account,
		Outcome: outcome, Note: note, Band: s.f.Band, Over90: over90Share(*s.f), StatementYear: s.year})
	if err != nil {
		return accountsError(err)
	}
	return redirect(c, "/reviews?reviewed="+url.QueryEscape(s.f.Account.Account))
}
