package main

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"time"

	"creditdash/internal/figures"
)

// holdDelay is how long the unread exports get to take hold of the
// dashboard's connections before the victim starts.
const holdDelay = 3 * time.Second

// unreadExports measures figure 4: the bulk user starts opts.exports
// exports of its large portfolio and never reads a byte of them, while
// another user (demo, with a cold cache, so its pages need the service)
// loads pages one after another for opts.victim.
func (l *lab) unreadExports(ctx context.Context) {
	const fig, what = 4, "victim beside unread exports"
	o := l.opts
	err := l.withDashboard(ctx, "web-starve", func(web *dashboard) error {
		hog, victim := newBrowser(web.URL, requestTimeout), newBrowser(web.URL, requestTimeout)
		if err := hog.signIn(ctx, "bulk"); err != nil {
			return err
		}
		if err := victim.signIn(ctx, "demo"); err != nil {
			return err
		}
		conns, err := holdExports(ctx, web.URL, hog.cookieHeader(), o.exports)
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		if err != nil {
			return err
		}
		sleep(ctx, holdDelay)
		t, wall := closedLoop(ctx, []*browser{victim}, victimMix, o.victim)
		rate := float64(t.ok()) / float64(max(t.count(), 1))
		l.rep.Check(fig, "victim's pages beside unread exports", fmt.Sprintf("%.1f %% (%d of %d)", 100*rate, t.ok(), t.count()),
			"100 %", t.count() > 0 && t.ok() == t.count())
		sorted := t.sorted()
		l.rep.Note(fig, "user bulk (%d businesses) opened %d exports on connections with a 4 kB receive buffer and read none; after %v, user demo loaded pages one at a time for %v (%s), %v per page at most; answers %s (%s); page times p50 %s, longest %s",
			o.bulk, len(conns), holdDelay, wall.Round(time.Millisecond), mixText(t), requestTimeout, statuses(t.byStatus), t.redirectText(),
			ms(figures.Percentile(sorted, 0.5)), ms(figures.Percentile(sorted, 1)))
		return nil
	})
	if err != nil {
		l.rep.Broken(fig, what, err)
	}
}

// holdExports opens n connections and sends an export request on each,
// written by hand so that nothing ever reads the answer; a small receive
// buffer makes the dashboard's writes block soon, as a stalled client's do.
func holdExports(ctx context.Context, base, cookie string, n int) ([]net.Conn, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	req := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n\r\n", pathOf(kindExport, 0), u.Host, cookie)
	var conns []net.Conn
	d := net.Dialer{Timeout: 5 * time.Second}
	for range n {
		c, err := d.DialContext(ctx, "tcp", u.Host)
		if err != nil {
			return conns, fmt.Errorf("loadtest: export connection %d: %w", len(conns)+1, err)
		}
		conns = append(conns, c)
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetReadBuffer(4 << 10)
		}
		if _, err := c.Write([]byte(req)); err != nil {
			return conns, fmt.Errorf("loadtest: export request %d: %w", len(conns), err)
		}
	}
	return conns, nil
}
