package handlers

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/views"
)

// The team's downloads (/accounts.csv, .xlsx, /portfolio/exposure.csv)
// build every account's figures: at 50,000 accounts, twenty at once took
// close to a gigabyte and turned other people's pages into 503s. They run
// a bounded number at once, per analyst and for the team; one past the
// bound is told at once to wait for the one running (429 with
// Retry-After), so it holds no memory and no admission turn of anyone else.
const (
	// heavyPerUser is how many of one analyst's downloads run at once.
	heavyPerUser = 1
	// heavyPerTeam is how many of the team's run at once.
	heavyPerTeam = 2
	// heavyRetry is when to try again: a download takes seconds.
	heavyRetry = 5 * time.Second
)

// heavyGate counts the heavy requests running, per user and in all. Its
// map holds only users with one running, at most heavyPerTeam of them.
type heavyGate struct {
	mu      sync.Mutex
	running int
	users   map[string]int
}

// enter takes a turn for user, or says why there is none: "user" when
// that analyst's own bound is reached, "team" when the team's is.
func (g *heavyGate) enter(user string) (leave func(), full string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.users[user] >= heavyPerUser:
		return nil, "user"
	case g.running >= heavyPerTeam:
		return nil, "team"
	}
	if g.users == nil {
		g.users = map[string]int{}
	}
	g.users[user]++
	g.running++
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.running--
		if g.users[user]--; g.users[user] <= 0 {
			delete(g.users, user)
		}
	}, ""
}

// errHeavyBusy is a download refused while others run.
var errHeavyBusy = errors.New("handlers: team downloads busy")

// boundHeavy runs a team download within the gate's bounds.
func (h *Handler) boundHeavy(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		leave, full := h.heavy.enter(session.Must(c).User)
		if leave == nil {
			msg := "Your earlier download of the team's accounts is still being prepared: one runs at a time for each analyst. Wait for it to finish, then try again."
			if full == "team" {
				msg = "Two downloads of the team's accounts are being prepared for colleagues just now. Wait a few seconds, then try again."
			}
			return &shownProblem{err: errHeavyBusy, problem: views.Problem{Status: http.StatusTooManyRequests,
				Title: "Wait for the download being prepared", Message: msg, Retry: true, RenewsAt: h.now().Add(heavyRetry)}}
		}
		defer leave()
		return next(c)
	}
}

// Bounds of the imports read at once: a file costs up to its bound in
// memory while it is read, so a team's analysts share two reads and each
// has one (issue 47).
const (
	importsPerTeam    = 2
	importsPerAnalyst = 1
)

// importGate counts the imports being read, per team and per analyst. Its
// zero value is ready; an entry lives only while its reads run, so the
// maps hold at most the imports running.
type importGate struct {
	mu       sync.Mutex
	teams    map[string]int
	analysts map[store.Analyst]bool
}

// enter takes a place for a's import, or says why there is none: the
// message tells the analyst to wait. leave gives the place back.
func (g *importGate) enter(a store.Analyst) (leave func(), wait string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.analysts[a]:
		return nil, "Another file of yours is being read; wait for it to finish, then send this one again."
	case g.teams[a.Service] >= importsPerTeam:
		return nil, "Two files of the team are being read; wait a moment for one to finish, then send this one again."
	}
	if g.teams == nil {
		g.teams, g.analysts = map[string]int{}, map[store.Analyst]bool{}
	}
	g.teams[a.Service]++
	g.analysts[a] = true
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		delete(g.analysts, a)
		if g.teams[a.Service]--; g.teams[a.Service] <= 0 {
			delete(g.teams, a.Service)
		}
	}, ""
}

// A page reads the workspace several times (unread alerts, the watch
// state, notes, rules, last-seen marks), and each read is bounded by the
// store. A database that stops answering would then cost each of them the
// whole bound in turn: 15–20 s for a report. Instead a page's workspace
// reads share one deadline, counted from the first: past it every further
// read fails at once, its section shows its problem, and the page renders
// with the service's data all the same. Form writes keep the store's own
// bound: a note being saved deserves its full chance.

// defaultWorkspaceDeadline is a page's time for all its workspace reads.
const defaultWorkspaceDeadline = 1500 * time.Millisecond

// wsCtx is the context a page's workspace reads share: the request's,
// with one deadline set at the first read. A page whose reads are all
// answered in process (the team's version, the counts it keeps) asks for
// the context but never starts its timer: that was a twentieth of a kept
// page's time.
func (h *Handler) wsCtx(c *echo.Context) context.Context {
	st := stateOf(c)
	if st.ws == nil {
		st.ws = &firstReadDeadline{parent: c.Request().Context(), d: h.wsDeadline}
	}
	return st.ws
}

// firstReadDeadline is parent with a deadline d from the first time a
// read asks for it: its Done, Deadline, Err or a value (deriving a
// context asks for Done and a value, so a derived one is cancelled with
// it as with any context of the package's own).
type firstReadDeadline struct {
	parent context.Context
	d      time.Duration
	once   sync.Once
	ctx    context.Context
}

func (f *firstReadDeadline) started() context.Context {
	f.once.Do(func() {
		ctx, cancel := context.WithTimeout(f.parent, f.d)
		// Released with the request at the latest.
		context.AfterFunc(f.parent, cancel)
		f.ctx = ctx
	})
	return f.ctx
}

// Deadline is the deadline, set now if no read has set it yet.
func (f *firstReadDeadline) Deadline() (time.Time, bool) { return f.started().Deadline() }

// Done is closed at the deadline or when the request ends.
func (f *firstReadDeadline) Done() <-chan struct{} { return f.started().Done() }

// Err says why Done is closed.
func (f *firstReadDeadline) Err() error { return f.started().Err() }

// Value is the request's value for key.
func (f *firstReadDeadline) Value(key any) any { return f.started().Value(key) }
