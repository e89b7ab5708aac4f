package deploytest

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// The shipped layout on one machine: Debian's nginx running
// deploy/nginx.conf in front of two replicas of one service. With the
// workspace database down, workspace pages answer the dashboard's own 503
// (never retried on the other replica), and reports, the portfolio and
// news keep answering 200 through nginx however many 503s went before: no
// replica is taken out for them. A replica that is gone is stepped over.
func TestNginxInFrontOfTwoReplicasWithTheDatabaseDown(t *testing.T) {
	bin, v := needNginx(t)
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	one := apptest.Start(t, apptest.Options{TrustedProxies: loopback})
	two := apptest.Start(t, apptest.Options{TrustedProxies: loopback, SameService: one})
	// Servers of this test's own, so that one replica can be taken away.
	srv1, srv2 := httptest.NewServer(one.Handler), httptest.NewServer(two.Handler)
	t.Cleanup(srv1.Close)
	t.Cleanup(srv2.Close)
	addr := func(s *httptest.Server) string { return strings.TrimPrefix(s.URL, "http://") }

	h := Harness{Replicas: []string{addr(srv1), addr(srv2)}, Listen: freeAddr(t), Dir: nginxDir(t), Version: v}
	runNginx(t, bin, h)
	front := &apptest.App{URL: "http://" + h.Listen}
	u := front.NewUser(t)
	if p := u.Login("demo", "demo", ""); p.Status != http.StatusSeeOther {
		t.Fatalf("sign-in through nginx: status %d", p.Status)
	}
	reports := []string{"/businesses/1001", "/businesses/1002/payments", "/portfolio", "/news/industry"}
	for range 2 {
		for _, path := range reports {
			if p := u.Get(path); p.Status != http.StatusOK {
				t.Fatalf("GET %s through nginx, all well: status %d", path, p.Status)
			}
		}
	}

	// Host with its port reaches the dashboard: the share link names nginx.
	share, _ := u.Get("/businesses/1001").Doc.Find("#share-url").Attr("value")
	if share != front.URL+"/businesses/1001" {
		t.Errorf("share link through nginx %q; want %s/businesses/1001", share, front.URL)
	}
	// A body over the dashboard's own limit gets the dashboard's answer
	// (with its security headers), not nginx's bare 413.
	big := u.PostForm("/businesses/1001/notes", url.Values{"_csrf": {u.Token("/businesses/1001")}, "text": {strings.Repeat("漢", 100_000)}})
	if big.Status != http.StatusRequestEntityTooLarge || big.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("a 300 kB note through nginx: status %d, CSP %q; want the dashboard's own 413",
			big.Status, big.Header.Get("Content-Security-Policy"))
	}

	if err := one.Store.Close(); err != nil {
		t.Fatal(err)
	}
	if err := two.Store.Close(); err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		p := u.Get("/watchlist")
		if p.Status != http.StatusServiceUnavailable || !strings.Contains(p.Text("main"), "Reports, the portfolio and news still work") {
			t.Fatalf("GET /watchlist #%d, database down: status %d, main %.200q; want the dashboard's 503", i+1, p.Status, p.Text("main"))
		}
	}
	for range 3 {
		for _, path := range reports {
			if p := u.Get(path); p.Status != http.StatusOK {
				t.Errorf("GET %s through nginx after the workspace's 503s: status %d, want 200", path, p.Status)
			}
		}
	}
	// One id names a request in nginx's log and the replica's.
	p := u.Get("/businesses/1001")
	id := p.Header.Get("X-Request-ID")
	if len(id) != 32 || !(one.Logs.Contains("request_id="+id) || two.Logs.Contains("request_id="+id)) {
		t.Errorf("X-Request-ID %q through nginx is not nginx's $request_id in the replica's log", id)
	}

	// A replica that is gone: the other answers, at once.
	srv2.CloseClientConnections()
	srv2.Close()
	for range 4 {
		for _, path := range reports[:2] {
			if p := u.Get(path); p.Status != http.StatusOK {
				t.Errorf("GET %s with one replica gone: status %d, want 200", path, p.Status)
			}
		}
	}

	access, _ := os.ReadFile(filepath.Join(h.Dir, "access.log"))
	errs, _ := os.ReadFile(filepath.Join(h.Dir, "error.log"))
	if strings.Contains(string(errs), "no live upstreams") {
		t.Errorf("nginx ran out of replicas:\n%s", errs)
	}
	if !strings.Contains(string(access), id) {
		t.Errorf("nginx's access log lacks the request id %s", id)
	}
	for _, line := range strings.Split(string(access), "\n") {
		// A 503 of the dashboard is answered once: one replica's address
		// in $upstream_addr, never "a, b" (a retry).
		if strings.Contains(line, "GET /watchlist") && strings.Contains(line, ", ") {
			t.Errorf("the workspace's 503 was retried on the other replica: %s", line)
		}
	}
}
