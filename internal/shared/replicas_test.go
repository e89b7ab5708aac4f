package shared_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/metrics"
	"creditdash/internal/shared/redistest"
)

// twoReplicas starts two dashboards, each with its own first level, on one
// store and one stand-in, as two replicas behind a load balancer.
// storeTimeout zero is apptest's.
func twoReplicas(t testing.TB, redisURL string, storeTimeout time.Duration) (a, b *apptest.App) {
	t.Helper()
	prefix := redistest.Prefix(t)
	a = apptest.Start(t, apptest.Options{RedisURL: redisURL, RedisPrefix: prefix, RedisTimeout: storeTimeout})
	b = apptest.Start(t, apptest.Options{RedisURL: redisURL, RedisPrefix: prefix, RedisTimeout: storeTimeout, SameService: a})
	return a, b
}

// serviceCalls is how many requests user made to the stand-in, sign-ins
// aside.
func serviceCalls(app *apptest.App, user string) int {
	n := 0
	for path, c := range app.Sim.Requests()[user] {
		if path != "/v1/Users/Login" {
			n += c
		}
	}
	return n
}

var reportTabs = []string{"/businesses/1001", "/businesses/1001/payments", "/businesses/1001/financials", "/businesses/1001/officers"}

// A report loaded through replica A is served by replica B without a
// single call to the service.
func TestReportLoadedOnOneReplicaIsServedByTheOther(t *testing.T) {
	a, b := twoReplicas(t, redistest.URL(t), 0)
	u := a.SignIn(t, "demo")
	for _, path := range reportTabs {
		if p := u.Get(path); p.Status != http.StatusOK {
			t.Fatalf("GET %s on A: status = %d, want 200", path, p.Status)
		}
	}
	a.Sim.Reset()
	onB := u.On(b)
	for _, path := range reportTabs {
		if p := onB.Get(path); p.Status != http.StatusOK {
			t.Fatalf("GET %s on B: status = %d, want 200", path, p.Status)
		}
	}
	if n := serviceCalls(a, "demo"); n != 0 {
		t.Errorf("B asked the service %d times for a report A had loaded, want 0 (%v)", n, a.Sim.Requests()["demo"])
	}
	if s := b.Cache.Stats(); s.SecondHits == 0 || s.Misses != 0 {
		t.Errorf("B's reads %+v: want shared copies and no misses", s)
	}
	// B's metrics show the hits, as an operator's scrape would.
	m := metrics.New()
	m.WatchCache(b.Cache.Stats)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if !regexp.MustCompile(`creditdash_cache_reads_total\{level="second",result="hit"\} [1-9]`).MatchString(rec.Body.String()) {
		t.Errorf("B's /metrics does not show its shared-store hits")
	}
}

// An Ordinary account (10 requests an hour) whose sessions alternate
// between the replicas never gets more than its 10 calls from the service,
// and never sees a 429 page: the replicas book one budget.
func TestOrdinaryAccountAlternatingBetweenReplicasStaysWithinItsQuota(t *testing.T) {
	a, b := twoReplicas(t, redistest.URL(t), 0)
	users := make([]*apptest.User, 10)
	for i := range users {
		users[i] = a.SignIn(t, "ordinary")
	}
	a.Sim.Reset()
	paths := []string{"/businesses/%d", "/businesses/%d/payments", "/portfolio/scores", "/news/industry", "/", "/businesses/%d/officers"}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		statuses = map[int]int{}
	)
	for i, u := range users {
		wg.Go(func() {
			for j := range 8 {
				replica := u
				if (i+j)%2 == 1 {
					replica = u.On(b)
				}
				path := paths[(i+j)%len(paths)]
				if strings.Contains(path, "%d") {
					path = fmt.Sprintf(path, 1001+(i*5+j)%30)
				}
				p := replica.Get(path)
				mu.Lock()
				statuses[p.Status]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if n := serviceCalls(a, "ordinary"); n > 10 {
		t.Errorf("the service got %d calls from an account of 10 an hour: %v", n, a.Sim.Requests()["ordinary"])
	}
	if statuses[http.StatusTooManyRequests] > 0 || statuses[http.StatusBadGateway] > 0 || statuses[http.StatusInternalServerError] > 0 {
		t.Errorf("answers by status: %v; want no 429, 502 or 500", statuses)
	}
	qa, okA := a.Cache.Quota("ordinary")
	qb, okB := b.Cache.Quota("ordinary")
	if !okA || !okB || qa.Remaining != qb.Remaining || qa.Limit != 10 {
		t.Errorf("quota on A %+v (%v), on B %+v (%v): want one budget of 10", qa, okA, qb, okB)
	}
}

// A cookie signed out on replica A is refused by replica B.
func TestSignOutOnOneReplicaIsRefusedOnTheOther(t *testing.T) {
	a, b := twoReplicas(t, redistest.URL(t), 0)
	u := a.SignIn(t, "demo")
	copied := b.NewUser(t)
	copied.SetCookies(u.Cookies())
	if p := copied.Get("/"); p.Status != http.StatusOK {
		t.Fatalf("the cookie on B before the sign-out: status %d, want 200", p.Status)
	}
	if p := u.PostForm("/logout", url.Values{"_csrf": {u.Token("/")}}); p.Status != http.StatusSeeOther {
		t.Fatalf("POST /logout on A: status %d", p.Status)
	}
	// B read "no sign-out" into memory above; the server's news of the
	// mark takes a moment to arrive.
	deadline := time.Now().Add(2 * time.Second)
	for {
		p := copied.Get("/businesses/1001")
		if p.Status == http.StatusSeeOther && strings.HasPrefix(p.Location(), "/login") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the signed-out cookie on B: status %d to %q, want the sign-in page", p.Status, p.Location())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if p := b.SignIn(t, "demo").Get("/"); p.Status != http.StatusOK {
		t.Errorf("signing in again on B right after: status %d", p.Status)
	}
}

// Killing the store mid-run leaves every page answering on both replicas;
// its return is picked up without a restart.
func TestPagesAnswerWhenTheStoreDies(t *testing.T) {
	srv := redistest.Start(t)
	// Production's store timeout: the point is how long pages wait.
	a, b := twoReplicas(t, srv.URL(), 100*time.Millisecond)
	u := a.SignIn(t, "demo")
	pages := append([]string{"/", "/portfolio", "/news/industry", "/businesses/1002"}, reportTabs...)
	for _, path := range pages[:4] {
		u.Get(path)
	}
	srv.Stop()
	for round := range 2 {
		for i, path := range pages {
			replica := u
			if (i+round)%2 == 1 {
				replica = u.On(b)
			}
			start := time.Now()
			if p := replica.Get(path); p.Status != http.StatusOK {
				t.Errorf("GET %s with the store down: status %d, want 200", path, p.Status)
			}
			// A few calls of the first pages wait out the store's
			// timeout before it counts as down; then none does.
			if d := time.Since(start); d > time.Second {
				t.Errorf("GET %s with the store down took %v", path, d)
			}
		}
	}
	if a.Shared.Degraded() == nil || b.Shared.Degraded() == nil {
		t.Error("the store is down but a replica does not say so")
	}
	// A new sign-in and a sign-out work too, on this replica alone.
	v := b.SignIn(t, "developer")
	if p := v.Get("/businesses/1003"); p.Status != http.StatusOK {
		t.Errorf("a report after signing in with the store down: status %d", p.Status)
	}
	srv.Resume()
	deadline := time.Now().Add(5 * time.Second)
	for a.Shared.Degraded() != nil || b.Shared.Degraded() != nil {
		if time.Now().After(deadline) {
			t.Fatalf("the store came back but the replicas did not notice: %v, %v", a.Shared.Degraded(), b.Shared.Degraded())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if p := u.On(b).Get("/businesses/1004"); p.Status != http.StatusOK {
		t.Errorf("after the store came back: status %d", p.Status)
	}
}
