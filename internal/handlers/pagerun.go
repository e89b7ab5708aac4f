package handlers

import (
	"context"
	"sync"

	"creditdash/internal/upstream/cache"
)

// A page's calls each run once. They run one after another against the
// cache in the request's own goroutine while every copy is held (a warm
// page starts no goroutine); at the first miss the calls not started yet
// start at once, each in its own goroutine. When the page is planned (its
// user's budget is short), a call that must ask the service waits at its
// miss until every call has either finished or waited: then what each
// section would spend is known, the plan decides, the waiting calls of the
// sections it loads go on to the service and the others answer their
// section's offer. Unplanned, a miss goes straight on. Each call makes one
// read, so a waiting call is one request a section would spend.

// pageRun is one page's calls under way.
type pageRun struct {
	h    *Handler
	rd   *cache.Reader
	gate func(*cache.Reader) Source
	// slots bounds the page's fetches at once to the client's pool.
	slots chan struct{}
	// decide plans the sections from what each would spend; nil lets every
	// miss fetch.
	decide func(costs []int) plan
	// calls are the page's calls, next the first not started yet; spread
	// starts the rest at the first miss.
	calls  []pageCall
	next   int
	spread sync.Once
	wg     sync.WaitGroup

	mu      sync.Mutex
	decided sync.Cond
	done    bool // the plan is made
	running int  // calls neither finished nor waiting at a miss
	costs   []int
	p       plan
	fetched int
}

// runSections runs every call of secs once, as the package comment says,
// and returns the plan decide made (zero when decide is nil) and how many
// copies the calls fetched.
func (h *Handler) runSections(ctx context.Context, rd *cache.Reader, gate func(*cache.Reader) Source, secs []section, decide func(costs []int) plan) (plan, int) {
	r := &pageRun{h: h, rd: rd, gate: gate, slots: make(chan struct{}, maxParallel), decide: decide,
		running: countCalls(secs), costs: make([]int, len(secs))}
	r.decided.L = &r.mu
	for i, sec := range secs {
		for _, call := range sec.calls {
			r.calls = append(r.calls, pageCall{section: i, call: call})
		}
	}
	for r.next < len(r.calls) {
		pc := r.calls[r.next]
		r.next++
		r.run(ctx, pc.section, pc.call)
	}
	r.wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	if decide != nil && !r.done {
		r.settle() // no calls at all
	}
	return r.p, r.fetched
}

// pageCall is one call of a page and the index of its section.
type pageCall struct {
	section int
	call    func(context.Context, Source)
}

// startRest starts every call not started yet, each in its own goroutine,
// once: at the first miss, so the calls after it do not wait for its
// fetch. Until then only the request's goroutine runs calls, so next is
// read and moved by it alone.
func (r *pageRun) startRest(ctx context.Context) {
	r.spread.Do(func() {
		for _, pc := range r.calls[r.next:] {
			r.wg.Go(func() { r.run(ctx, pc.section, pc.call) })
		}
		r.next = len(r.calls)
	})
}

// run runs one call of section i through a reader that holds its misses.
func (r *pageRun) run(ctx context.Context, i int, call func(context.Context, Source)) {
	var release []func()
	call(ctx, r.gate(r.rd.Holding(func(ctx context.Context) error {
		rel, err := r.hold(ctx, i)
		if rel != nil {
			release = append(release, rel)
		}
		return err
	})))
	for _, rel := range release {
		rel()
	}
	r.mu.Lock()
	r.running--
	r.maySettle()
	r.mu.Unlock()
}

// hold is asked by a call of section i before it fetches a copy: it waits
// for the plan when there is one to wait for, and answers the section's
// offer when the plan leaves the section unloaded. A fetch that goes on
// takes one of the page's slots and one of its user's (a fair share:
// however many pages the user opens at once, only callsPerUser of their
// calls run); release gives both back.
func (r *pageRun) hold(ctx context.Context, i int) (release func(), err error) {
	// The calls not started yet count as running: they must start before
	// this one waits for the plan.
	r.startRest(ctx)
	r.mu.Lock()
	if r.decide != nil && !r.done {
		r.costs[i]++
		r.running--
		r.maySettle()
		for !r.done {
			r.decided.Wait()
		}
		r.running++
	}
	if r.decide != nil && !r.p.load[i] {
		offer := r.p.offers[i]
		r.mu.Unlock()
		return nil, offer
	}
	r.fetched++
	r.mu.Unlock()
	select {
	case r.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, nil // the fetch fails with its ended context
	}
	// A call that gives up waiting runs with its ended context and fails
	// as such.
	userRelease, err := r.h.calls.acquire(ctx, r.rd.Who().User)
	return func() {
		if err == nil {
			userRelease()
		}
		<-r.slots
	}, nil
}

// maySettle makes the plan once no call is left running; the caller holds
// the lock.
func (r *pageRun) maySettle() {
	if r.decide != nil && !r.done && r.running == 0 {
		r.settle()
	}
}

// settle makes the plan and wakes the waiting calls; the caller holds the
// lock.
func (r *pageRun) settle() {
	r.p, r.done = r.decide(r.costs), true
	r.decided.Broadcast()
}
