package handlers

import "golang.org/x/sync/errgroup"

// maxParallel bounds how many service calls one page makes at once; it
// matches the client's connection pool so no call waits for a connection.
const maxParallel = 8

// fanOut runs a page's calls at once and waits for all of them. Each call
// keeps its own result and error, so one failing section never cancels or
// blanks the others; the page decides afterwards what each failure means.
func fanOut(calls ...func()) {
	var g errgroup.Group
	g.SetLimit(maxParallel)
	for _, call := range calls {
		g.Go(func() error {
			call()
			return nil
		})
	}
	_ = g.Wait()
}

// Fair shares of the service: however many pages and exports one user
// opens at once, they hold at most these many of the service connections
// (256), so one user cannot starve the others. Eight is one page's calls
// at once: a single page never waits on its own user's share.
const (
	callsPerUser   = maxParallel
	exportsPerUser = 2
)
