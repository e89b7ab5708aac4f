package handlers

import (
	"sync"

	"creditdash/internal/store"
)

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
