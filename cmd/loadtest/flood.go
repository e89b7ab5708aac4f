package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Figure 5's target: what the whole flood may add to the log.
const logTarget = 5_000_000

// floodClients is how many connections the flood uses at once.
const floodClients = 8

// logFlood measures figure 5: opts.floodRequests unauthenticated requests
// with paths of opts.floodPath bytes, half to a page that needs sign-in and
// half to a static file that does not exist, and the bytes the dashboard's
// log grew by.
func (l *lab) logFlood(ctx context.Context) {
	const fig, what = 5, "log flood"
	o := l.opts
	err := l.withDashboard(ctx, "web-flood", func(web *dashboard) error {
		before, err := web.LogBytes()
		if err != nil {
			return err
		}
		long := strings.Repeat("a", o.floodPath)
		paths := []string{"/businesses/" + long, "/static/" + long}
		client := &http.Client{
			Timeout:       requestTimeout,
			Transport:     &http.Transport{MaxIdleConnsPerHost: floodClients},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
		defer client.CloseIdleConnections()
		t := newTally()
		var next atomic.Int64
		start := time.Now()
		deadline := start.Add(o.floodTime)
		var wg sync.WaitGroup
		for range floodClients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Now().Before(deadline) && ctx.Err() == nil {
					i := next.Add(1) - 1
					if i >= int64(o.floodRequests) {
						return
					}
					t.add(kindHome, fetch(ctx, client, web.URL+paths[i%2], "Accept-Encoding", "gzip"))
				}
			}()
		}
		wg.Wait()
		wall := time.Since(start)
		// The log is written as requests end; give the last lines a moment.
		sleep(ctx, 500*time.Millisecond)
		after, err := web.LogBytes()
		if err != nil {
			return err
		}
		grew := after - before
		n := t.count()
		// A flood cut short by -flood-time is scaled to the full count.
		full := grew * int64(o.floodRequests) / int64(max(n, 1))
		measured := mb(grew)
		if n < o.floodRequests {
			measured = fmt.Sprintf("%s for %d (%s scaled)", mb(grew), n, mb(full))
		}
		l.rep.Check(fig, fmt.Sprintf("log bytes for %d requests of %d kB paths", o.floodRequests, o.floodPath/1000), measured,
			"< "+mb(logTarget), full < logTarget)
		l.rep.Note(fig, "%d requests from %d keep-alive clients in %v, no cookie; paths /businesses/a… and /static/a…; answers %s; log = the dashboard's stdout and stderr in a file, at its default level",
			n, floodClients, wall.Round(time.Millisecond), statuses(t.byStatus))
		return nil
	})
	if err != nil {
		l.rep.Broken(fig, what, err)
	}
}
