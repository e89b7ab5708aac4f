package cache_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/upstream/simulator"
)

var (
	once sync.Once
	data *simulator.Dataset
)

func demo() *simulator.Dataset {
	once.Do(func() {
		data = simulator.Generate(simulator.GenerateOptions{Seed: 1, AsOf: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)})
	})
	return data
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

type fixture struct {
	sim   *simulator.Server
	raw   *upstream.Client
	cache *cache.Cache
	clock *clock
}

func newFixture(t testing.TB, opts cache.Options) *fixture {
	t.Helper()
	f := &fixture{clock: &clock{t: time.Now()}}
	f.sim = simulator.New(demo(), simulator.Options{Now: f.clock.Now, SessionTTL: 24 * time.Hour})
	srv := httptest.NewServer(f.sim)
	t.Cleanup(srv.Close)
	var err error
	if f.raw, err = upstream.New(srv.URL, upstream.Options{Timeout: 2 * time.Second}); err != nil {
		t.Fatal(err)
	}
	opts.Now = f.clock.Now
	if f.cache, err = cache.New(f.raw, opts); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) login(t testing.TB, user string) (context.Context, cache.Who) {
	t.Helper()
	res, err := f.raw.Login(context.Background(), user, "demo")
	if err != nil {
		t.Fatal(err)
	}
	return context.Background(), cache.Who{User: user, Key: res.SessionKey}
}

// calls is how many requests user made to path.
func (f *fixture) calls(user, path string) int { return f.sim.Requests()[user][path] }

const summaryPath = "/v1/Business/Summary"

func TestRepeatCallsAreServedFromTheCache(t *testing.T) {
	f := newFixture(t, cache.Options{})
	ctx, key := f.login(t, "demo")
	for range 3 {
		if _, err := f.cache.Reader(key).Summary(ctx, upstream.ByID(1001)); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.calls("demo", summaryPath); n != 1 {
		t.Errorf("3 reads made %d requests, want 1", n)
	}
}

func TestCopiesExpirePerKind(t *testing.T) {
	f := newFixture(t, cache.Options{TTLs: map[cache.Kind]time.Duration{cache.KindNews: time.Minute}})
	ctx, key := f.login(t, "demo")
	f.cache.Reader(key).Summary(ctx, upstream.ByID(1001))
	f.cache.Reader(key).IndustryNews(ctx)
	f.clock.Add(2 * time.Minute)
	f.cache.Reader(key).Summary(ctx, upstream.ByID(1001))
	f.cache.Reader(key).IndustryNews(ctx)
	if n := f.calls("demo", summaryPath); n != 1 {
		t.Errorf("report data re-fetched after 2 min (%d requests), want kept for 15", n)
	}
	if n := f.calls("demo", "/v1/Industries/News"); n != 2 {
		t.Errorf("news fetched %d times, want 2 (its lifetime is 1 min here)", n)
	}
	f.clock.Add(15 * time.Minute)
	f.cache.Reader(key).Summary(ctx, upstream.ByID(1001))
	if n := f.calls("demo", summaryPath); n != 2 {
		t.Errorf("report data after 17 min: %d requests, want 2", n)
	}
}

func TestUsersNeverShareCopies(t *testing.T) {
	f := newFixture(t, cache.Options{})
	demoCtx, demoKey := f.login(t, "demo")
	devCtx, devKey := f.login(t, "developer")
	full, err := f.cache.Reader(demoKey).LatestAnnualStatements(demoCtx, upstream.ByID(1001), upstream.StatementsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	limited, err := f.cache.Reader(devKey).LatestAnnualStatements(devCtx, upstream.ByID(1001), upstream.StatementsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(limited[0].Values) >= len(full[0].Values) {
		t.Errorf("the API-Only user got %d keys, the Full one %d: the copy was shared", len(limited[0].Values), len(full[0].Values))
	}
	if f.calls("developer", "/v1/Business/LatestAnnualStatements") != 1 {
		t.Error("the second user's call did not reach the service")
	}
}

func TestConcurrentIdenticalCallsShareOne(t *testing.T) {
	f := newFixture(t, cache.Options{})
	ctx, key := f.login(t, "demo")
	f.sim.SetFaults(simulator.Faults{Latency: 100 * time.Millisecond, ErrorStatus: 500})
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if _, err := f.cache.Reader(key).Officers(ctx, upstream.ByID(1002)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := f.calls("demo", "/v1/Business/Officers"); n != 1 {
		t.Errorf("20 concurrent reads made %d requests, want 1", n)
	}
	if st := f.cache.Stats(); st.Merged == 0 || st.Merged+st.Misses < 20 {
		t.Errorf("stats %+v: the shared call is not counted as merged", st)
	}
}

func TestFailuresAreNotCached(t *testing.T) {
	f := newFixture(t, cache.Options{})
	ctx, key := f.login(t, "demo")
	if _, err := f.cache.Reader(key).Summary(ctx, upstream.ByID(999999)); !errors.Is(err, upstream.ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	f.sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorStatus: 500})
	if _, err := f.cache.Reader(key).Summary(ctx, upstream.ByID(1001)); !errors.Is(err, upstream.ErrUnavailable) {
		t.Fatalf("err = %v", err)
	}
	f.sim.SetFaults(simulator.Faults{ErrorStatus: 500})
	if _, err := f.cache.Reader(key).Summary(ctx, upstream.ByID(1001)); err != nil {
		t.Fatalf("after the failure: %v", err)
	}
	f.cache.Reader(key).Summary(ctx, upstream.ByID(999999))
	if n := f.calls("demo", summaryPath); n != 4 {
		t.Errorf("%d requests, want 4: no failure may be kept", n)
	}
}

func TestStaleCopyWhenTheServiceFails(t *testing.T) {
	for _, status := range []int{500, 429} {
		f := newFixture(t, cache.Options{})
		ctx, key := f.login(t, "demo")
		first, err := f.cache.Reader(key).Summary(ctx, upstream.ByID(1001))
		if err != nil {
			t.Fatal(err)
		}
		fetched := f.clock.Now()
		f.clock.Add(20 * time.Minute)
		f.sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorStatus: status})
		rd := f.cache.Reader(key)
		got, err := rd.Summary(ctx, upstream.ByID(1001))
		if err != nil || got.Text != first.Text {
			t.Fatalf("status %d: got %v, %v; want the older copy", status, got, err)
		}
		since, why := rd.Report().StaleSince, rd.Report().StaleReason
		if !since.Equal(fetched) || why == "" {
			t.Errorf("status %d: stale since %v (%q), want %v with a reason", status, since, why, fetched)
		}
		if st := f.cache.Stats(); st.Stale != 1 {
			t.Errorf("status %d: %d stale reads counted, want 1", status, st.Stale)
		}
		// A refusal is an answer, not an outage: no stale copy then. (The
		// hour passes first: a 429 leaves nothing to spend until it renews.)
		f.sim.SetFaults(simulator.Faults{ErrorStatus: 500})
		f.clock.Add(61 * time.Minute)
		if _, err := f.cache.Reader(cache.Who{User: "demo", Key: "bogus-key"}).Summary(ctx, upstream.ByID(1001)); !errors.Is(err, upstream.ErrSessionExpired) {
			t.Errorf("a 403 must pass through: %v", err)
		}
	}
}

func TestForgetAsksAgainAndProbeNeverAsks(t *testing.T) {
	f := newFixture(t, cache.Options{})
	ctx, key := f.login(t, "demo")
	probe := f.cache.Reader(key).Probe(nil)
	if _, err := probe.Summary(ctx, upstream.ByID(1001)); !errors.Is(err, cache.ErrNotCached) {
		t.Fatalf("probe of an empty cache: err = %v", err)
	}
	if probe.Misses() != 1 || f.calls("demo", summaryPath) != 0 {
		t.Fatalf("probe: misses %d, requests %d; want 1 and 0", probe.Misses(), f.calls("demo", summaryPath))
	}
	rd := f.cache.Reader(key)
	rd.Summary(ctx, upstream.ByID(1001))
	copies := rd.Report().Copies
	if len(copies) != 1 || !cache.ValidToken(copies[0]) {
		t.Fatalf("copies = %q, want one token", copies)
	}
	// Another user's Refresh cannot reach demo's copy.
	f.cache.Forget("developer", copies)
	f.cache.Reader(key).Summary(ctx, upstream.ByID(1001))
	if n := f.calls("demo", summaryPath); n != 1 {
		t.Fatalf("%d requests after another user's forget, want 1", n)
	}
	f.cache.Forget("demo", copies)
	f.cache.Reader(key).Summary(ctx, upstream.ByID(1001))
	f.cache.Reader(key).Summary(ctx, upstream.ByID(1001))
	if n := f.calls("demo", summaryPath); n != 2 {
		t.Errorf("%d requests, want 2 (one load, one after forgetting)", n)
	}
	probe = f.cache.Reader(key).Probe(nil)
	if _, err := probe.Summary(ctx, upstream.ByID(1001)); err != nil || probe.Misses() != 0 {
		t.Errorf("probe of a cached call: err %v, misses %d", err, probe.Misses())
	}
}

func TestForgottenCopyStillStandsInWhenTheServiceFails(t *testing.T) {
	f := newFixture(t, cache.Options{})
	ctx, key := f.login(t, "demo")
	rd := f.cache.Reader(key)
	if _, err := rd.Summary(ctx, upstream.ByID(1001)); err != nil {
		t.Fatal(err)
	}
	f.cache.Forget("demo", rd.Report().Copies)
	f.sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorStatus: 500})
	rd = f.cache.Reader(key)
	if _, err := rd.Summary(ctx, upstream.ByID(1001)); err != nil {
		t.Fatalf("forgotten copy during an outage: %v, want the older copy", err)
	}
	if rd.Report().StaleSince.IsZero() {
		t.Error("the forgotten copy is not marked as older data")
	}
}

func TestQuotaIsKeptPerUser(t *testing.T) {
	f := newFixture(t, cache.Options{})
	ctx, key := f.login(t, "ordinary")
	if _, ok := f.cache.Quota(key.User); ok {
		t.Fatal("quota known before any call")
	}
	f.cache.Reader(key).Summary(ctx, upstream.ByID(1001))
	f.cache.Reader(key).Officers(ctx, upstream.ByID(1001))
	q, ok := f.cache.Quota(key.User)
	if !ok || q.Limit != 10 || q.Remaining != 8 {
		t.Fatalf("quota = %+v, %v; want 8 of 10 left", q, ok)
	}
	dctx, dkey := f.login(t, "demo")
	f.cache.Reader(dkey).Summary(dctx, upstream.ByID(1001))
	if _, ok := f.cache.Quota(dkey.User); ok {
		t.Error("an unlimited user has a quota")
	}
	f.clock.Add(61 * time.Minute)
	if q, _ := f.cache.Quota(key.User); q.Remaining != 10 {
		t.Errorf("after the window renewed: %d left, want 10", q.Remaining)
	}
}

func TestMemoryIsBounded(t *testing.T) {
	f := newFixture(t, cache.Options{MaxBytes: 64 << 10})
	ctx, key := f.login(t, "demo")
	for id := int32(1001); id < 1101; id++ {
		f.cache.Reader(key).PaymentSummarySIC(ctx, upstream.ByID(id))
	}
	f.cache.Reader(key).Summary(ctx, upstream.ByID(1001)) // lets the cache finish its eviction work
	if size := f.cache.Size(); size > 80<<10 {
		t.Errorf("the cache holds %d bytes, bound is 64 KiB", size)
	}
}

// A kept copy weighs twice the answer the client read plus its keep: the
// size comes from the wire, not from encoding the decoded value again.
func TestCopiesWeighTheirAnswers(t *testing.T) {
	f := newFixture(t, cache.Options{})
	ctx, key := f.login(t, "demo")
	var answered sizeKeeper
	if _, err := f.raw.Kept(key.Key, &answered).PaymentSummarySIC(ctx, upstream.ByID(1001)); err != nil {
		t.Fatal(err)
	}
	if answered.size < 1000 {
		t.Fatalf("the client noted %d answer bytes", answered.size)
	}
	if _, err := f.cache.Reader(key).PaymentSummarySIC(ctx, upstream.ByID(1001)); err != nil {
		t.Fatal(err)
	}
	f.cache.CleanUp() // the cache counts weights in its upkeep
	if got, want := f.cache.Size(), uint64(2*answered.size+256); got != want {
		t.Errorf("the copy weighs %d, want %d (twice the %d-byte answer, plus 256)", got, want, answered.size)
	}
}

// sizeKeeper keeps nothing and notes the size of the last answer.
type sizeKeeper struct{ size int }

func (k *sizeKeeper) Read(ctx context.Context, _ upstream.Request, _ any, fetch upstream.Fetch) error {
	a, err := fetch.Do(ctx, false)
	k.size = a.Size
	return err
}

func (k *sizeKeeper) Spend(ctx context.Context, _ string, call func(context.Context) (upstream.Answer, error)) error {
	_, err := call(ctx)
	return err
}

func TestForgetUserDropsOnlyThatUsersCopies(t *testing.T) {
	f := newFixture(t, cache.Options{})
	ctx, demo := f.login(t, "demo")
	_, dev := f.login(t, "developer")
	f.cache.Reader(demo).Summary(ctx, upstream.ByID(1001))
	f.cache.Reader(dev).Summary(ctx, upstream.ByID(1001))
	f.cache.ForgetUser("demo")
	f.cache.Reader(demo).Summary(ctx, upstream.ByID(1001))
	f.cache.Reader(dev).Summary(ctx, upstream.ByID(1001))
	if d, v := f.calls("demo", summaryPath), f.calls("developer", summaryPath); d != 2 || v != 1 {
		t.Errorf("requests: demo %d, developer %d; want 2 and 1", d, v)
	}
}
