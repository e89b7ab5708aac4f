package handlers

import (
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"iter"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v5"
	"github.com/maypok86/otter/v2"

	"creditdash/internal/credit"
	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// The analyst's workspace: watch list, notes, alert rules and alerts,
// last-seen marks and dated snapshots, kept by internal/store. This file
// holds what every workspace page shares and the watch list; notes, alerts
// and snapshots have files of their own.

// analyst is whose workspace the request uses: the service and the user.
func (h *Handler) analyst(c *echo.Context) store.Analyst {
	return store.Analyst{Service: h.service, User: session.Must(c).User}
}

// workspaceBook remembers when each analyst last changed their workspace
// in this process, which the rules' marks below are taken at. Entries
// outlive those marks and then go, which bounds the book.
type workspaceBook struct {
	last *otter.Cache[store.Analyst, int64]
	// evaluated remembers score data already checked against the rules
	// (see evaluatedAlready); bounded, and forgotten within the cache's
	// lifetimes so other replicas' new rules are seen.
	evaluated *otter.Cache[evaluated, struct{}]
	// noRules marks an analyst found without rules, at their last change
	// here: every report of theirs is then checked already, with one
	// entry instead of one per report. It is forgotten as evaluated is.
	noRules *otter.Cache[store.Analyst, int64]
	// glance keeps each analyst's unread-alert count and last change for a
	// moment: every page shows the one and is kept by the other, and
	// asking the database on every warm page cost more than the rest of
	// the page. A change here drops it at once; one on another replica
	// shows within glanceLife.
	glance *otter.Cache[store.Analyst, store.Glance]
}

// glanceLife is how long a glance at the workspace is believed.
const glanceLife = 2 * time.Second

func newWorkspaceBook() (*workspaceBook, error) {
	c, err := otter.New(&otter.Options[store.Analyst, int64]{
		MaximumSize:      100_000,
		ExpiryCalculator: otter.ExpiryWriting[store.Analyst, int64](3 * middleware.PageLife),
	})
	if err != nil {
		return nil, err
	}
	e, err := otter.New(&otter.Options[evaluated, struct{}]{
		MaximumSize:      100_000,
		ExpiryCalculator: otter.ExpiryWriting[evaluated, struct{}](2 * middleware.PageLife),
	})
	if err != nil {
		return nil, err
	}
	n, err := otter.New(&otter.Options[store.Analyst, int64]{
		MaximumSize:      100_000,
		ExpiryCalculator: otter.ExpiryWriting[store.Analyst, int64](2 * middleware.PageLife),
	})
	if err != nil {
		return nil, err
	}
	u, err := otter.New(&otter.Options[store.Analyst, store.Glance]{
		MaximumSize:      100_000,
		ExpiryCalculator: otter.ExpiryWriting[store.Analyst, store.Glance](glanceLife),
	})
	if err != nil {
		return nil, err
	}
	return &workspaceBook{last: c, evaluated: e, noRules: n, glance: u}, nil
}

// touched records a change of the analyst's workspace.
func (h *Handler) touched(a store.Analyst) {
	h.wsBook.last.Set(a, h.now().UnixNano())
	h.wsBook.glance.Invalidate(a)
}

// headerCounts are the header's workspace figures: the workspace's last
// change and its unread alerts (the glance), and the decisions waiting
// for the user. A kept page's key and the page's Base must agree on them.
type headerCounts struct {
	glance  store.Glance
	waiting int
}

// counts are the header's counts of the page ld loaded, read at their
// first use (the page's key, else its Base) and kept on ld, so the key
// and the header share one read. A page without service data (ld nil) is
// never kept and reads them once, for its Base.
func (h *Handler) counts(c *echo.Context, ld *loaded) headerCounts {
	if ld != nil && ld.counts != nil {
		return *ld.counts
	}
	hc := headerCounts{glance: h.glance(c), waiting: h.waitingForMe(c, ld)}
	if ld != nil {
		ld.counts = &hc
	}
	return hc
}

// awaiting is the header's count of decisions waiting for the user, as
// the page ld loaded shows it.
func (h *Handler) awaiting(c *echo.Context, ld *loaded) int { return h.counts(c, ld).waiting }

// glance reads the workspace's header state, from the in-process copy
// while the analyst's workspace has not changed. A failing database hides
// the count instead of failing the page.
func (h *Handler) glance(c *echo.Context) store.Glance {
	a := h.analyst(c)
	g, ok := h.wsBook.glance.GetIfPresent(a)
	if !ok {
		var err error
		if g, err = h.store.Glance(h.wsCtx(c), a); err != nil {
			h.logWorkspace(c, "glance", err)
			g = store.Glance{}
		} else {
			h.wsBook.glance.Set(a, g)
		}
	}
	return g
}

// logWorkspace logs a workspace read that failed where the page goes on
// without it.
func (h *Handler) logWorkspace(c *echo.Context, op string, err error) {
	h.meter.StoreError()
	h.log.Error("workspace read failed", "request_id", middleware.RequestID(c), "op", op, "err", err)
}

// errWorkspaceDown is the workspace database failing or not answering in
// time. The driver's words go to the log only (%v keeps them from being
// taken for the service's time-outs).
var errWorkspaceDown = errors.New("handlers: the workspace is not answering")

// workspaceError turns a store error into what the error handler shows:
// another analyst's or a missing id is a 404, refused input a 400 with
// the store's words; anything else is the database failing, a 503 that
// says reports still work.
func workspaceError(err error) error {
	var ve *store.ValidationError
	switch {
	case errors.Is(err, store.ErrNotFound):
		return echo.ErrNotFound
	case errors.As(err, &ve):
		return badInput("%s", storeMessage(err))
	case isFull(err):
		return badInput("%s", storeMessage(err))
	}
	return fmt.Errorf("%w: %v", errWorkspaceDown, err)
}

// isFull reports one of the store's bounds.
func isFull(err error) bool {
	return errors.Is(err, store.ErrWatchListFull) || errors.Is(err, store.ErrNotesFull) ||
		errors.Is(err, store.ErrRulesFull) || errors.Is(err, store.ErrSnapshotsFull)
}

// storeMessage is a refusal in the analyst's words: the field's message,
// or the sentinel without its "store: " prefix.
func storeMessage(err error) string {
	var ve *store.ValidationError
	if errors.As(err, &ve) {
		return sentence(ve.Message)
	}
	return sentence(strings.TrimPrefix(err.Error(), "store: "))
}

// sentence starts msg with a capital and ends it with a full stop.
func sentence(msg string) string {
	if msg == "" {
		return msg
	}
	r, n := utf8.DecodeRuneInString(msg)
	msg = string(unicode.ToUpper(r)) + msg[n:]
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

// rowID reads a workspace row's id from the path: anything but a positive
// number is an id no analyst has, so 404.
func rowID(c *echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, echo.ErrNotFound
	}
	return id, nil
}

// businessID reads /businesses/{id} of a workspace form.
func businessID(c *echo.Context) (int32, error) {
	ref, err := parseIDParam(c)
	if err != nil {
		return 0, err
	}
	return ref.ID(), nil
}

// formName is a business name sent back by a form, bounded: it is only
// a label for lists.
func formName(c *echo.Context, id int32) string {
	name := strings.TrimSpace(c.FormValue("name"))
	if name == "" {
		return "Business " + strconv.FormatInt(int64(id), 10)
	}
	return views.Clip(name, 200)
}

// backTo is where a form returns: the page it came from when that is a
// path on this site, else fallback.
func backTo(c *echo.Context, fallback string) string {
	if b := c.FormValue("back"); b != "" {
		if p := middleware.SafePath(b); p != "/" {
			return p
		}
	}
	return fallback
}

// watchState is the header's watch button for a business, nil when its
// service id is unknown.
func (h *Handler) watchState(c *echo.Context, ref upstream.BusinessRef, hd *headerData) *views.WatchState {
	id, name := reportBusiness(ref, hd)
	if id == 0 {
		return nil
	}
	watched, err := h.store.IsWatched(h.wsCtx(c), h.analyst(c), id)
	if err != nil {
		h.logWorkspace(c, "is watched", err)
		return nil
	}
	return &views.WatchState{BusinessID: id, Name: name, Watched: watched}
}

// reportBusiness is the service id and name of the business a report is
// on: the path's id, or the identification's for a customer or supplier
// id (0 when unknown).
func reportBusiness(ref upstream.BusinessRef, hd *headerData) (int32, string) {
	var id int32
	var name string
	if ident := hd.identification(); ident != nil {
		id, name = ident.BusinessID, ident.BusinessName
	}
	if ref.Kind() == upstream.RefID {
		id = ref.ID()
	}
	if name == "" && id != 0 {
		name = "Business " + strconv.FormatInt(int64(id), 10)
	}
	return id, name
}

// submitWatch adds the business to the watch list.
func (h *Handler) submitWatch(c *echo.Context) error {
	id, err := businessID(c)
	if err != nil {
		return err
	}
	a := h.analyst(c)
	if err := h.store.Watch(c.Request().Context(), a, id, formName(c, id)); err != nil {
		return workspaceError(err)
	}
	h.touched(a)
	return redirect(c, backTo(c, "/businesses/"+strconv.FormatInt(int64(id), 10)))
}

// submitUnwatch takes the business off the watch list.
func (h *Handler) submitUnwatch(c *echo.Context) error {
	id, err := businessID(c)
	if err != nil {
		return err
	}
	a := h.analyst(c)
	if err := h.store.Unwatch(c.Request().Context(), a, id); err != nil {
		return workspaceError(err)
	}
	h.touched(a)
	return redirect(c, backTo(c, "/businesses/"+strconv.FormatInt(int64(id), 10)))
}

// showWatchlist lists the watched businesses with their latest Pay and Z″
// scores from the portfolio histories the home page reads too (the same
// copies), loaded within the hourly budget.
func (h *Handler) showWatchlist(c *echo.Context) error {
	list, err := h.store.WatchList(h.wsCtx(c), h.analyst(c))
	if err != nil {
		return workspaceError(err)
	}
	var (
		pay, z     upstream.PortfolioScoreHistory
		perr, zerr error
	)
	page := views.WatchlistPage{}
	var ld *loaded
	if len(list) > 0 {
		rows := upstream.PortfolioQuery{StartRow: 1, EndRow: homeMoveRows}
		ld = h.load(c, section{name: "scores", calls: []func(context.Context, Source){
			func(ctx context.Context, src Source) { pay, perr = src.PayScoreHistory(ctx, rows) },
			func(ctx context.Context, src Source) { z, zerr = src.ZScoreHistory(ctx, rows) },
		}})
		if err := expiredAmong(perr, zerr); err != nil {
			return err
		}
		var payLatest, zLatest map[int32]credit.Latest
		if page.ScoresProblem = h.sectionProblem(c, errors.Join(perr, zerr)); page.ScoresProblem == nil {
			payLatest, zLatest = credit.PortfolioLatest(pay), credit.PortfolioLatest(z)
			h.portfolioArrived(c, ld, pay, z)
		}
		// Risk and DBT come only with a report: the values last seen on
		// one, from the workspace, without a request.
		ids := idsOf(list, func(w store.Watch) int32 { return w.BusinessID })
		seen, err := h.store.LastSeen(h.wsCtx(c), h.analyst(c), ids)
		if err != nil {
			return workspaceError(err)
		}
		page.Rows = views.WatchRows(list, payLatest, zLatest, seen, "not loaded")
	}
	page.Base = h.base(c, ld, "Watch list", views.NavWorkspace)
	return h.render(c, http.StatusOK, templates.Watchlist(page))
}

// exportWatchlist downloads the watch list as CSV.
func (h *Handler) exportWatchlist(c *echo.Context) error {
	list, err := h.store.WatchList(c.Request().Context(), h.analyst(c))
	if err != nil {
		return workspaceError(err)
	}
	// The list is bounded (1,000 rows, read at once); its rows go out as
	// they are written, never as a whole file.
	h.csvHeaders(c, "watchlist")
	c.Response().WriteHeader(http.StatusOK)
	w := csv.NewWriter(c.Response())
	_ = w.Write(store.WatchCSVHeader)
	for _, item := range list {
		_ = w.Write(item.CSVRecord())
	}
	w.Flush()
	return nil
}

// exportNotes downloads every note as CSV, streamed from the database a
// batch at a time: an analyst's notes may hold 20 MB, which is never
// built in memory. A failure before the first row is a page; after it,
// the download is cut, so a short file is never taken for a whole one.
func (h *Handler) exportNotes(c *echo.Context) error {
	// Each row starts with the link to the note's own page, which a
	// spreadsheet keeps as text and opens.
	site := h.siteURL(c)
	var w *csv.Writer
	start := func() {
		h.csvHeaders(c, "notes")
		c.Response().WriteHeader(http.StatusOK)
		w = csv.NewWriter(c.Response())
		_ = w.Write(append([]string{"note"}, store.NoteCSVHeader...))
	}
	rows := 0
	err := h.store.EachNote(c.Request().Context(), h.analyst(c), func(n store.Note) error {
		if w == nil {
			start()
		}
		if err := w.Write(append([]string{site + views.NoteEditPath(n.ID)}, n.CSVRecord()...)); err != nil {
			return err
		}
		if rows++; rows%store.NotesBatch == 0 {
			w.Flush()
			return w.Error()
		}
		return nil
	})
	switch {
	case err != nil && w == nil:
		return workspaceError(err)
	case err != nil:
		h.log.Warn("notes download cut", "request_id", middleware.RequestID(c), "rows", rows, "err", err)
		panic(http.ErrAbortHandler)
	case w == nil:
		start()
	}
	w.Flush()
	return nil
}

// csvHeaders names a CSV download of the workspace's name.
func (h *Handler) csvHeaders(c *echo.Context, name string) {
	file := "creditdash-" + name + "-" + h.now().UTC().Format("2006-01-02") + ".csv"
	hd := c.Response().Header()
	hd.Set(echo.HeaderContentType, mime.FormatMediaType("text/csv", map[string]string{"charset": "utf-8"}))
	hd.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": file}))
	hd.Set("Cache-Control", "no-store")
}

// showWorkspaceSettings offers the downloads and "Delete all my workspace
// data"; ?confirm=1 asks for the confirmation.
func (h *Handler) showWorkspaceSettings(c *echo.Context) error {
	page := views.WorkspaceSettingsPage{Confirm: c.QueryParam("confirm") != ""}
	page.Base = h.base(c, nil, "Your workspace", views.NavWorkspace)
	if _, err := c.Cookie(deletedCookie); err == nil {
		page.Flash = "All your workspace data was deleted."
		h.setDeletedCookie(c, -1) // told once
	}
	return h.render(c, http.StatusOK, templates.WorkspaceSettings(page))
}

// deletedCookie marks, for one visit of the settings page, that this
// browser just deleted the workspace: a link cannot say so, so a
// hand-made one never claims a deletion that did not happen.
const deletedCookie = "creditdash_deleted"

// setDeletedCookie sets the mark for a minute (maxAge 60) or clears it (-1).
func (h *Handler) setDeletedCookie(c *echo.Context, maxAge int) {
	c.SetCookie(&http.Cookie{Name: deletedCookie, Value: "1", Path: "/settings/workspace", MaxAge: maxAge,
		HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode})
}

// deleteConfirmation is what the analyst types to delete everything.
const deleteConfirmation = "DELETE"

// submitDeleteWorkspace deletes every row of the analyst's workspace once
// the confirmation is typed; without it, the form comes back with a message.
func (h *Handler) submitDeleteWorkspace(c *echo.Context) error {
	typed := strings.TrimSpace(c.FormValue("confirm"))
	if typed != deleteConfirmation {
		page := views.WorkspaceSettingsPage{Confirm: true, Typed: views.Clip(typed, 40),
			Error: "Type " + deleteConfirmation + " in capitals to confirm; nothing was deleted."}
		page.Base = h.base(c, nil, "Your workspace", views.NavWorkspace)
		return h.render(c, http.StatusUnprocessableEntity, templates.WorkspaceSettings(page))
	}
	a := h.analyst(c)
	if err := h.store.DeleteAnalyst(c.Request().Context(), a); err != nil {
		return workspaceError(err)
	}
	h.touched(a)
	h.setDeletedCookie(c, 60)
	return redirect(c, "/settings/workspace")
}

// changedSince compares the portfolio's latest Pay and Z″ scores with what
// the analyst saw before and remembers the new values. known is false on
// the first visit, when nothing was seen yet. The marks shown are part of
// the page's key (ld.state).
func (h *Handler) changedSince(c *echo.Context, ld *loaded, pay, z upstream.PortfolioScoreHistory) (changed []views.Changed, known bool) {
	ctx := h.wsCtx(c)
	a := h.analyst(c)
	both := append(slices.Clone(pay.Businesses), z.Businesses...)
	seen, err := h.store.LastSeen(ctx, a, idsOf(both, func(b upstream.PortfolioBusinessScores) int32 { return b.BusinessID }))
	if err != nil {
		h.logWorkspace(c, "last seen", err)
		return nil, false
	}
	names := map[int32]string{}
	for _, b := range both {
		names[b.BusinessID] = b.BusinessName
	}
	payL, zL := credit.PortfolioLatest(pay), credit.PortfolioLatest(z)
	changed = append(views.ChangedSince(views.PortfolioPay, payL, names, seen), views.ChangedSince(views.PortfolioZ, zL, names, seen)...)
	slices.SortFunc(changed, func(x, y views.Changed) int {
		if x.Worse != y.Worse {
			if x.Worse {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(x.Name, y.Name), cmp.Compare(x.Score, y.Score))
	})
	h.seenArrived(c, seen, payL, zL)
	var state strings.Builder
	for _, ch := range changed {
		state.WriteString(ch.URL + "|" + ch.Score + "|" + ch.Was + "|" + ch.Now + "\n")
	}
	ld.state += strconv.FormatBool(len(seen) > 0) + "\n" + state.String()
	return changed, len(seen) > 0
}

// idsOf are the business ids of xs, for reading the marks of a page's
// businesses only.
func idsOf[T any](xs []T, id func(T) int32) []int32 {
	out := make([]int32, 0, len(xs))
	for _, x := range xs {
		out = append(out, id(x))
	}
	return out
}

// downloadFlush is how many rows of a download go out between moves of
// its write deadline.
const downloadFlush = 500

// sendCSV writes a download straight to the response, row by row as rows
// yields them, never as a whole file. A long download outlasts the page
// write deadline: it moves on every downloadFlush rows instead, so a
// browser that stops reading is cut after the stall limit. Rows must be
// ready to go (anything that can fail read before): past the status, a
// failure can only cut the download.
func (h *Handler) sendCSV(c *echo.Context, name string, header []string, rows iter.Seq[[]string]) error {
	h.csvHeaders(c, name)
	w := c.Response()
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(h.exportStall))
	w.WriteHeader(http.StatusOK)
	cw := csv.NewWriter(w)
	_ = cw.Write(header)
	n := 0
	for r := range rows {
		if err := cw.Write(r); err != nil {
			h.abortDownload(c, n, err)
		}
		if n++; n%downloadFlush == 0 {
			_ = rc.SetWriteDeadline(time.Now().Add(h.exportStall))
		}
	}
	if cw.Flush(); cw.Error() != nil {
		h.abortDownload(c, n, cw.Error())
	}
	return nil
}

// abortDownload ends a download that failed after its status was sent:
// only a broken connection tells the browser the file is incomplete.
func (h *Handler) abortDownload(c *echo.Context, rows int, err error) {
	h.log.Warn("download cut", "request_id", middleware.RequestID(c), "path", c.Request().URL.Path, "rows", rows, "err", err)
	panic(http.ErrAbortHandler)
}
