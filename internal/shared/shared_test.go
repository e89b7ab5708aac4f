package shared_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
	"time"

	"creditdash/internal/shared"
	"creditdash/internal/shared/redistest"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/upstream/simulator"
)

var (
	dataOnce sync.Once
	data     *simulator.Dataset
)

func demo() *simulator.Dataset {
	dataOnce.Do(func() {
		data = simulator.Generate(simulator.GenerateOptions{Seed: 1, AsOf: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)})
	})
	return data
}

// replicas is one stand-in and two caches, each with its own first level
// and its own connection to one shared store, as two replicas would be.
type replicas struct {
	sim    *simulator.Server
	raw    *upstream.Client
	a, b   *cache.Cache
	sa, sb *shared.Store
}

// newReplicas starts them; storeTimeout zero is production's, tests that
// count calls give a second (see apptest).
func newReplicas(t *testing.T, url string, storeTimeout time.Duration, opts cache.Options) *replicas {
	t.Helper()
	r := &replicas{sim: simulator.New(demo(), simulator.Options{SessionTTL: 24 * time.Hour})}
	srv := httptest.NewServer(r.sim)
	t.Cleanup(srv.Close)
	var err error
	if r.raw, err = upstream.New(srv.URL, upstream.Options{Timeout: 2 * time.Second}); err != nil {
		t.Fatal(err)
	}
	prefix := redistest.Prefix(t)
	open := func() (*cache.Cache, *shared.Store) {
		st, err := shared.Open(url, shared.Options{Prefix: prefix, Timeout: storeTimeout, ProbeEvery: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(st.Close)
		if err := st.Degraded(); err != nil {
			t.Fatal(err)
		}
		o := opts
		o.Second, o.Book = st, shared.NewBook(st, cache.NewBook(nil))
		c, err := cache.New(r.raw, o)
		if err != nil {
			t.Fatal(err)
		}
		return c, st
	}
	r.a, r.sa = open()
	r.b, r.sb = open()
	return r
}

func (r *replicas) login(t *testing.T, user string) cache.Who {
	t.Helper()
	res, err := r.raw.Login(context.Background(), user, "demo")
	if err != nil {
		t.Fatal(err)
	}
	return cache.Who{User: user, Key: res.SessionKey}
}

// calls is how many requests user made, all paths together.
func (r *replicas) calls(user string) int {
	n := 0
	for _, c := range r.sim.Requests()[user] {
		n += c
	}
	return n
}

// eventually waits for cond, as news of a change travels.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 200 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s: never happened", what)
}

// Every operation's answer read on replica A is served on replica B from
// the store, equal to the last detail, without asking the service.
func TestCopiesTravelBetweenReplicasIntact(t *testing.T) {
	r := newReplicas(t, redistest.URL(t), time.Second, cache.Options{})
	who := r.login(t, "demo")
	ctx := context.Background()
	ref := upstream.ByID(1001)
	folders, err := r.a.Reader(who).Folders(ctx)
	if err != nil || len(folders) == 0 {
		t.Fatalf("folders: %v, %v", folders, err)
	}
	fid := folders[0].FolderID
	from := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	pq := upstream.PortfolioQuery{From: from, To: from.AddDate(1, 0, 0), StartRow: 1, EndRow: 20}
	reads := map[string]func(*cache.Reader) (any, error){
		"folders": func(x *cache.Reader) (any, error) { return x.Folders(ctx) },
		"summary": func(x *cache.Reader) (any, error) { return x.Summary(ctx, ref) },
		"ident":   func(x *cache.Reader) (any, error) { return x.IdentificationGroup(ctx, ref) },
		"naics":   func(x *cache.Reader) (any, error) { return x.NAICSCodes(ctx, ref) },
		"scores":  func(x *cache.Reader) (any, error) { return x.CreditScoreHistory(ctx, ref, time.Time{}, time.Time{}) },
		"risk":    func(x *cache.Reader) (any, error) { return x.RiskHistory(ctx, ref, 12) },
		"monthly": func(x *cache.Reader) (any, error) { return x.PaymentSummaryMonthly(ctx, ref) },
		"sic":     func(x *cache.Reader) (any, error) { return x.PaymentSummarySIC(ctx, ref) },
		"statements": func(x *cache.Reader) (any, error) {
			return x.LatestAnnualStatements(ctx, ref, upstream.StatementsQuery{Count: 3})
		},
		"wordfill":   func(x *cache.Reader) (any, error) { return x.WordFill(ctx, ref) },
		"officers":   func(x *cache.Reader) (any, error) { return x.Officers(ctx, ref) },
		"businesses": func(x *cache.Reader) (any, error) { return x.PortfolioBusinesses(ctx, fid) },
		"pay":        func(x *cache.Reader) (any, error) { return x.PayScoreHistory(ctx, pq) },
		"z":          func(x *cache.Reader) (any, error) { return x.ZScoreHistory(ctx, pq) },
		"foldernews": func(x *cache.Reader) (any, error) { return x.FolderNews(ctx, fid) },
		"industry":   func(x *cache.Reader) (any, error) { return x.IndustryNews(ctx) },
		"search":     func(x *cache.Reader) (any, error) { return x.Search(ctx, "a", 10) },
		"providers":  func(x *cache.Reader) (any, error) { return x.TradeProviders(ctx) },
	}
	for name, read := range reads {
		ra := r.a.Reader(who)
		va, errA := read(ra)
		before := r.calls("demo")
		rb := r.b.Reader(who)
		vb, errB := read(rb)
		if errA != nil {
			if errB == nil {
				t.Errorf("%s: A failed (%v) but B answered", name, errA)
			}
			continue // refusals are never kept: nothing to compare
		}
		if errB != nil {
			t.Errorf("%s on B: %v", name, errB)
			continue
		}
		if n := r.calls("demo") - before; n != 0 {
			t.Errorf("%s: B asked the service %d times, want 0", name, n)
		}
		if !reflect.DeepEqual(va, vb) {
			t.Errorf("%s: B's copy differs from A's:\nA %#v\nB %#v", name, va, vb)
		}
		if a, b := ra.Report(), rb.Report(); a.Fingerprint != b.Fingerprint || !a.FetchedAt.Equal(b.FetchedAt) {
			t.Errorf("%s: reports differ: A %+v, B %+v", name, a, b)
		}
	}
	if s := r.b.Stats(); s.SecondHits == 0 || s.Misses != 0 {
		t.Errorf("B's stats %+v: want second-level hits and no misses", s)
	}
	// Read again on B: now from its own memory. The server's news of A's
	// writes may reach B after B kept its copies and drop one (the whole
	// make test, every package at once, once delayed it so); the copy read
	// again is then kept.
	eventually(t, "B answers from its own memory", func() bool {
		if _, err := r.b.Reader(who).Summary(ctx, ref); err != nil {
			t.Fatal(err)
		}
		return r.b.Stats().FirstHits > 0
	})
}

// A Refresh on B reaches A's first level: A asks the service again. A
// change of trade provider on B drops A's copies of the user.
func TestForgettingOnOneReplicaReachesTheOther(t *testing.T) {
	r := newReplicas(t, redistest.URL(t), time.Second, cache.Options{})
	who := r.login(t, "demo")
	ctx := context.Background()
	ref := upstream.ByID(1001)
	ra := r.a.Reader(who)
	if _, err := ra.Summary(ctx, ref); err != nil {
		t.Fatal(err)
	}
	if _, err := r.a.Reader(who).Summary(ctx, ref); err != nil { // settles in A's first level
		t.Fatal(err)
	}
	base := r.calls("demo")
	r.b.Forget("demo", ra.Report().Copies)
	eventually(t, "A asks the service after B's Refresh", func() bool {
		_, _ = r.a.Reader(who).Summary(ctx, ref)
		return r.calls("demo") == base+1
	})
	if _, err := r.b.Reader(who).Summary(ctx, ref); err != nil || r.calls("demo") != base+1 {
		t.Errorf("B after A's new copy: %v, %d calls; want the copy and no call", err, r.calls("demo")-base)
	}
	r.b.ForgetUser("demo")
	eventually(t, "A asks the service after B forgot the user", func() bool {
		_, _ = r.a.Reader(who).Summary(ctx, ref)
		return r.calls("demo") == base+2
	})
}

// Identical misses on two replicas at once make one service call.
func TestConcurrentMissesAcrossReplicasShareOneCall(t *testing.T) {
	r := newReplicas(t, redistest.URL(t), time.Second, cache.Options{})
	r.sim.SetFaults(simulator.Faults{Latency: 200 * time.Millisecond})
	who := r.login(t, "demo")
	var wg sync.WaitGroup
	for i := range 20 {
		c := r.a
		if i%2 == 1 {
			c = r.b
		}
		wg.Go(func() {
			if _, err := c.Reader(who).Summary(context.Background(), upstream.ByID(1002)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := r.sim.Requests()["demo"]["/v1/Business/Summary"]; n != 1 {
		t.Errorf("%d service calls for one answer on two replicas, want 1", n)
	}
}

// An Ordinary account (10 requests an hour) asking both replicas for 60
// answers at once makes at most 10 calls, and is never refused by the
// service: the replicas book one budget.
func TestBudgetIsSharedByReplicas(t *testing.T) {
	r := newReplicas(t, redistest.URL(t), time.Second, cache.Options{})
	who := r.login(t, "ordinary")
	var (
		wg              sync.WaitGroup
		mu              sync.Mutex
		served, refused int
	)
	for id := int32(1001); id < 1061; id++ {
		c := r.a
		if id%2 == 1 {
			c = r.b
		}
		wg.Go(func() {
			_, err := c.Reader(who).Summary(context.Background(), upstream.ByID(id))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				served++
			case errors.Is(err, cache.ErrBudgetSpent):
				refused++
			default:
				t.Errorf("unexpected error (the service's own refusal?): %v", err)
			}
		})
	}
	wg.Wait()
	if n := r.sim.Requests()["ordinary"]["/v1/Business/Summary"]; n > 10 {
		t.Errorf("the service was asked %d times, more than the quota of 10", n)
	}
	if served != 10 || refused != 50 {
		t.Errorf("%d served, %d refused; want 10 and 50", served, refused)
	}
	for name, c := range map[string]*cache.Cache{"A": r.a, "B": r.b} {
		if q, ok := c.Quota("ordinary"); !ok || q.Remaining != 0 || q.Limit != 10 || q.Reset <= 0 || q.Reset > time.Hour {
			t.Errorf("quota on %s = %+v, %v; want 0 of 10, renewing within the hour", name, q, ok)
		}
	}
}

// A sign-out on one replica is seen by the other.
func TestSignOutsAreShared(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t)
	open := func() *shared.SignOuts {
		st, err := shared.Open(url, shared.Options{Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(st.Close)
		return shared.NewSignOuts(st, &memMarks{m: map[string]time.Time{}}, time.Hour)
	}
	a, b := open(), open()
	ctx := context.Background()
	if _, ok := b.SignedOut(ctx, "demo"); ok {
		t.Fatal("a mark before any sign-out")
	}
	at := time.Now().Truncate(time.Millisecond)
	if err := a.MarkSignedOut(ctx, "demo", at); err != nil {
		t.Fatal(err)
	}
	// B read "no mark" into memory above; the server's news of the
	// change takes a moment to arrive.
	eventually(t, "B sees A's mark", func() bool { got, ok := b.SignedOut(ctx, "demo"); return ok && got.Equal(at) })
	// An older mark arriving late does not move it back.
	if err := b.MarkSignedOut(ctx, "demo", at.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "A sees the later mark", func() bool { got, ok := a.SignedOut(ctx, "demo"); return ok && got.Equal(at) })
	later := at.Add(time.Second)
	if err := b.MarkSignedOut(ctx, "demo", later); err != nil {
		t.Fatal(err)
	}
	eventually(t, "A sees B's new mark", func() bool { got, ok := a.SignedOut(ctx, "demo"); return ok && got.Equal(later) })
}

// memMarks is a plain local mark book for the tests.
type memMarks struct {
	mu sync.Mutex
	m  map[string]time.Time
}

func (m *memMarks) SignedOut(_ context.Context, user string) (time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	at, ok := m.m[user]
	return at, ok
}

func (m *memMarks) MarkSignedOut(_ context.Context, user string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[user] = at
	return nil
}

// A copy fetched on A and expired since stands in, marked with its age,
// when the service fails B: the fetch time travels with the copy.
func TestExpiredCopyOfAnotherReplicaStandsInWhenTheServiceFails(t *testing.T) {
	r := newReplicas(t, redistest.URL(t), time.Second, cache.Options{TTLs: map[cache.Kind]time.Duration{cache.KindReport: 50 * time.Millisecond}})
	who := r.login(t, "demo")
	ctx := context.Background()
	ra := r.a.Reader(who)
	want, err := ra.Summary(ctx, upstream.ByID(1001))
	if err != nil {
		t.Fatal(err)
	}
	fetched := ra.Report().FetchedAt
	time.Sleep(100 * time.Millisecond)
	r.sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorStatus: http.StatusInternalServerError})
	rb := r.b.Reader(who)
	got, err := rb.Summary(ctx, upstream.ByID(1001))
	if err != nil {
		t.Fatalf("B with the service failing: %v; want A's expired copy", err)
	}
	rep := rb.Report()
	if !reflect.DeepEqual(got, want) || !rep.StaleSince.Equal(fetched) || rep.StaleReason == "" {
		t.Errorf("B's report %+v: want the copy A fetched at %v, marked stale", rep, fetched)
	}
}

// A 429 that named no limit holds the shared budget for its moment and
// then leaves no made-up limit behind, as the cache's own book does.
func TestSharedRefusalWithoutFiguresLeavesNoLimit(t *testing.T) {
	st, err := shared.Open(redistest.URL(t), shared.Options{Prefix: redistest.Prefix(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	book := shared.NewBook(st, cache.NewBook(nil))
	r, err := book.Reserve(t.Context(), "u", "Op")
	if err != nil {
		t.Fatal(err)
	}
	r.Done(cache.Outcome{Refused: true, RetryAfter: 300 * time.Millisecond})
	if q, ok := book.Quota("u"); !ok || q.Remaining != 0 || q.Limit != 0 {
		t.Errorf("during the refusal: quota %+v, %v; want none left and no limit named", q, ok)
	}
	time.Sleep(600 * time.Millisecond) // past the refusal's end, by the store's clock
	if q, ok := book.Quota("u"); ok {
		t.Errorf("after the refusal: quota %+v; want none known", q)
	}
	// The next reservation is the first of an unknown window, and its
	// answer leaves no limit of 1 behind either.
	if r, err = book.Reserve(t.Context(), "u", "Op"); err != nil {
		t.Fatal(err)
	}
	r.Done(cache.Outcome{Succeeded: true})
	if q, ok := book.Quota("u"); ok && q.Limit == 1 {
		t.Errorf("after a plain answer: quota %+v; want no limit of 1", q)
	}
}

// A copy a page found missing may have reached the shared store since, from
// another replica, and only a read can tell: with a shared store such a
// page is never held. Copies held in the first level still are.
func TestMissingCopiesAreNeverHeldWithASharedStore(t *testing.T) {
	r := newReplicas(t, redistest.URL(t), time.Second, cache.Options{})
	who := r.login(t, "demo")
	ctx := context.Background()
	ref := upstream.ByID(1001)
	if _, err := r.a.Reader(who).Summary(ctx, ref); err != nil {
		t.Fatal(err)
	}
	rd := r.a.Reader(who)
	if _, err := rd.Summary(ctx, ref); err != nil { // settles in A's first level
		t.Fatal(err)
	}
	if !r.a.Holds(rd.Report().Deps) {
		t.Error("a copy held in the first level is not held")
	}
	probe := r.a.Reader(who).Probe(nil)
	if _, err := probe.Officers(ctx, ref); !errors.Is(err, cache.ErrNotCached) {
		t.Fatalf("probe of officers not read yet: %v", err)
	}
	if r.a.Holds(probe.Report().Deps) {
		t.Error("a copy found missing is held, though another replica may have stored it")
	}
}
