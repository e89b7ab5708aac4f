package cache_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
)

// An Ordinary account (10 requests an hour) asked for 60 different answers
// at once makes at most its 10 calls; the rest are refused here, as a 429
// that says when the limit renews, without reaching the service.
func TestBudgetIsReservedBeforeEachCall(t *testing.T) {
	f := newFixture(t, cache.Options{})
	ctx, who := f.login(t, "ordinary")
	var wg sync.WaitGroup
	var mu sync.Mutex
	refused, served := 0, 0
	for id := int32(1001); id < 1061; id++ {
		wg.Go(func() {
			_, err := f.cache.Reader(who).Summary(ctx, upstream.ByID(id))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				served++
			case errors.Is(err, cache.ErrBudgetSpent) && errors.Is(err, upstream.ErrRateLimited):
				refused++
				var ue *upstream.Error
				if !errors.As(err, &ue) || ue.RetryAfter <= 0 || ue.RetryAfter > time.Hour {
					t.Errorf("budget refusal without a renewal time: %v (%v)", err, ue.RetryAfter)
				}
			default:
				t.Errorf("unexpected error: %v", err)
			}
		})
	}
	wg.Wait()
	if n := f.calls("ordinary", summaryPath); n > 10 {
		t.Errorf("the service was asked %d times, more than the quota of 10", n)
	}
	if served != 10 || refused != 50 {
		t.Errorf("%d served, %d refused; want 10 and 50", served, refused)
	}
	if q, ok := f.cache.Quota("ordinary"); !ok || q.Remaining != 0 {
		t.Errorf("quota after the storm = %+v, %v; want 0 left", q, ok)
	}
	// The hour renews: the budget is back.
	f.clock.Add(61 * time.Minute)
	if q, ok := f.cache.Quota("ordinary"); !ok || q.Remaining != 10 {
		t.Errorf("quota after the renewal = %+v, %v; want 10 of 10", q, ok)
	}
	if _, err := f.cache.Reader(who).Summary(ctx, upstream.ByID(1100)); err != nil {
		t.Errorf("after the renewal: %v", err)
	}
}

// While a user's quota is unknown, one call goes first and the others wait
// for its answer: an account whose budget is one request makes one call.
func TestFirstCallOfAnUnknownWindowGoesAlone(t *testing.T) {
	f := newFixture(t, cache.Options{})
	ctx, who := f.login(t, "ordinary")
	// Spend all but one request directly, behind the cache's back.
	for id := int32(2001); id < 2010; id++ {
		if _, err := f.raw.As(who.Key).Officers(context.Background(), upstream.ByID(id)); err != nil && !errors.Is(err, upstream.ErrNotFound) {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for id := int32(1001); id < 1021; id++ {
		wg.Go(func() { _, _ = f.cache.Reader(who).Summary(ctx, upstream.ByID(id)) })
	}
	wg.Wait()
	if n := f.calls("ordinary", summaryPath); n != 1 {
		t.Errorf("%d calls with one request left, want 1", n)
	}
}

func TestUnlimitedAccountsAreNeverRefused(t *testing.T) {
	f := newFixture(t, cache.Options{})
	ctx, who := f.login(t, "demo")
	var wg sync.WaitGroup
	for id := int32(1001); id < 1041; id++ {
		wg.Go(func() {
			if _, err := f.cache.Reader(who).Summary(ctx, upstream.ByID(id)); err != nil {
				t.Errorf("unlimited account refused: %v", err)
			}
		})
	}
	wg.Wait()
	if _, ok := f.cache.Quota("demo"); ok {
		t.Error("an unlimited account shows a quota")
	}
}

// Exports reserve from the same budget as pages.
func TestDownloadSpendsTheSameBudget(t *testing.T) {
	f := newFixture(t, cache.Options{})
	ctx, who := f.login(t, "ordinary")
	for id := int32(1001); id < 1011; id++ {
		f.cache.Reader(who).Officers(ctx, upstream.ByID(id))
	}
	_, err := f.cache.Reader(who).Download(ctx, upstream.DownloadQuery{})
	if !errors.Is(err, cache.ErrBudgetSpent) {
		t.Errorf("download with nothing left: %v, want a budget refusal", err)
	}
	if n := f.calls("ordinary", "/v1/Portfolio/Download"); n != 0 {
		t.Errorf("the service was asked for the export %d times, want 0", n)
	}
}

// A 429 that named neither the limit nor the renewal stops the spending
// for the moment, but once over it leaves no made-up hourly limit behind
// ("1 of 1 requests left"): the next answer tells the figures.
func TestRefusalWithoutFiguresLeavesNoLimit(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	book := cache.NewBook(func() time.Time { return now })
	r, err := book.Reserve(t.Context(), "u", "Op")
	if err != nil {
		t.Fatal(err)
	}
	r.Done(cache.Outcome{Refused: true, RetryAfter: time.Minute})
	if q, ok := book.Quota("u"); !ok || q.Remaining != 0 || q.Limit != 0 || q.Reset != time.Minute {
		t.Errorf("during the refusal: quota %+v, %v; want none left, no limit named, a minute to wait", q, ok)
	}
	now = now.Add(time.Minute + time.Second)
	if q, ok := book.Quota("u"); ok {
		t.Errorf("after the refusal: quota %+v; want none known", q)
	}
}

// A call waits for another call of its user to learn an unknown quota only
// for FirstAnswerWait: a first call that never settles does not hold the
// user's other calls longer, and once it settles calls go on at once.
func TestWaitForTheFirstAnswerIsBounded(t *testing.T) {
	// Made outside the bubble: the book's cache tidies in a goroutine of
	// its own that never ends. Inside, time.Now is the bubble's clock.
	book := cache.NewBook(time.Now)
	synctest.Test(t, func(t *testing.T) {
		first, err := book.Reserve(t.Context(), "u", "Summary")
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := book.Reserve(t.Context(), "u", "Summary"); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("waiting on a first call that never settles: %v, want a deadline error", err)
		}
		if waited := time.Since(start); waited != cache.FirstAnswerWait {
			t.Errorf("gave up after %v of the bubble's clock, want %v", waited, cache.FirstAnswerWait)
		}
		// The caller's own context still ends the wait sooner.
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		if _, err := book.Reserve(ctx, "u", "Summary"); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != cache.FirstAnswerWait+time.Second {
			t.Fatalf("with a caller's deadline of 1s: %v after %v", err, time.Since(start)-cache.FirstAnswerWait)
		}
		done := make(chan error)
		go func() {
			_, err := book.Reserve(t.Context(), "u", "Summary")
			done <- err
		}()
		synctest.Wait() // the call above is waiting
		first.Done(cache.Outcome{Succeeded: true})
		if err := <-done; err != nil {
			t.Fatalf("after the first call settled: %v", err)
		}
	})
}
