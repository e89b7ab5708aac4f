package middleware

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

// Plan is what a page loads now: Load[i] for its section i, and for a
// section left unloaded Offers[i], what its calls answer instead (an error
// that says what loading it would cost).
type Plan[O error] struct {
	Load   []bool
	Offers []O
}

// pageRun is one page's calls under way.
type pageRun[S any, O error] struct {
	rd   *cache.Reader
	gate func(*cache.Reader) S
	// users bounds each user's fetches at once (a fair share).
	users *UserSlots
	// slots bounds the page's fetches at once to the client's pool.
	slots chan struct{}
	// decide plans the sections from what each would spend; nil lets every
	// miss fetch.
	decide func(costs []int) Plan[O]
	// calls are the page's calls, next the first not started yet; spread
	// starts the rest at the first miss.
	calls  []pageCall[S]
	next   int
	spread sync.Once
	wg     sync.WaitGroup

	mu      sync.Mutex
	decided sync.Cond
	done    bool // the plan is made
	running int  // calls neither finished nor waiting at a miss
	costs   []int
	p       Plan[O]
	fetched int
}

// RunSections runs every call of secs (the calls of each section) once,
// as the file's comment says, reading through gate(rd); at most parallel
// fetch at once, and users bounds each user's. It returns the plan decide
// made (zero when decide is nil) and how many copies the calls fetched.
func RunSections[S any, O error](ctx context.Context, rd *cache.Reader, gate func(*cache.Reader) S, secs [][]func(context.Context, S),
	decide func(costs []int) Plan[O], users *UserSlots, parallel int) (Plan[O], int) {
	r := &pageRun[S, O]{rd: rd, gate: gate, users: users, slots: make(chan struct{}, parallel), decide: decide,
		costs: make([]int, len(secs))}
	r.decided.L = &r.mu
	for i, calls := range secs {
		for _, call := range calls {
			r.calls = append(r.calls, pageCall[S]{section: i, call: call})
		}
	}
	r.running = len(r.calls)
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
type pageCall[S any] struct {
	section int
	call    func(context.Context, S)
}

// startRest starts every call not started yet, each in its own goroutine,
// once: at the first miss, so the calls after it do not wait for its
// fetch. Until then only the request's goroutine runs calls, so next is
// read and moved by it alone.
func (r *pageRun[S, O]) startRest(ctx context.Context) {
	r.spread.Do(func() {
		for _, pc := range r.calls[r.next:] {
			r.wg.Go(func() { r.run(ctx, pc.section, pc.call) })
		}
		r.next = len(r.calls)
	})
}

// run runs one call of section i through a reader that holds its misses.
func (r *pageRun[S, O]) run(ctx context.Context, i int, call func(context.Context, S)) {
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
// however many pages the user opens at once, only the users' limit of their
// calls run); release gives both back.
func (r *pageRun[S, O]) hold(ctx context.Context, i int) (release func(), err error) {
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
	if r.decide != nil && !r.p.Load[i] {
		offer := r.p.Offers[i]
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
	userRelease, err := r.users.Acquire(ctx, r.rd.Who().User)
	return func() {
		if err == nil {
			userRelease()
		}
		<-r.slots
	}, nil
}

// maySettle makes the plan once no call is left running; the caller holds
// the lock.
func (r *pageRun[S, O]) maySettle() {
	if r.decide != nil && !r.done && r.running == 0 {
		r.settle()
	}
}

// settle makes the plan and wakes the waiting calls; the caller holds the
// lock.
func (r *pageRun[S, O]) settle() {
	r.p, r.done = r.decide(r.costs), true
	r.decided.Broadcast()
}
