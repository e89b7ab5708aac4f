package handlers

import (
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/session"
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
