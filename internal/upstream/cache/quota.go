package cache

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/maypok86/otter/v2"

	"creditdash/internal/upstream"
)

// The hourly budget is reserved, not discovered: before a call for a user
// whose quota is known, one request is reserved, so concurrent sections,
// pages and exports of that user can never spend more than is left. While
// the quota is unknown (the first call after start or after the window
// renewed) one call goes first and the others wait for its headers.

// ErrBudgetSpent is what a call answers, without asking the service, when
// the user's hourly requests are all spent or reserved. It is also an
// upstream.ErrRateLimited, carrying when the limit renews.
var ErrBudgetSpent = errors.New("cache: hourly request budget spent")

// FirstAnswerWait bounds how long a call waits for another call of the
// same user to learn an unknown quota. Each Book bounds that wait itself,
// so the calls that need not wait, nearly all of them, set no timer.
const FirstAnswerWait = 10 * time.Second

// Book keeps every user's hourly budget: this process's own (NewBook), or
// one shared by replicas (internal/shared). Either follows the rules
// above.
type Book interface {
	// Reserve claims one request of user's budget for a call of op,
	// waiting at most FirstAnswerWait while another call is learning an
	// unknown quota. It refuses with BudgetError when nothing is left, and
	// gives up with ctx.
	Reserve(ctx context.Context, user, op string) (Reservation, error)
	// Quota is the user's quota as the book counts it; ok is false for
	// unlimited accounts and while the quota is unknown.
	Quota(user string) (q upstream.RateLimit, ok bool)
}

// Reservation is one call's claim on a user's budget.
type Reservation interface {
	// Done settles the claim with what the call's answer said.
	Done(Outcome)
}

// Outcome is what a call's answer told about the budget.
type Outcome struct {
	// Seen is the quota the answer reported, when HasQuota.
	Seen     upstream.RateLimit
	HasQuota bool
	// Succeeded: the call answered without an error.
	Succeeded bool
	// Unanswered: the call never reached the service (a timeout, a
	// refused connection), so it most likely was not counted.
	Unanswered bool
	// Refused: the service itself answered 429, renewing after
	// RetryAfter.
	Refused    bool
	RetryAfter time.Duration
}

// outcomeOf sorts a call's result for the book.
func outcomeOf(seen upstream.RateLimit, saw bool, err error) Outcome {
	o := Outcome{Seen: seen, HasQuota: saw, Succeeded: err == nil, Unanswered: !answered(err)}
	var ue *upstream.Error
	if errors.Is(err, upstream.ErrRateLimited) && !errors.Is(err, ErrBudgetSpent) && errors.As(err, &ue) {
		o.Refused, o.RetryAfter = true, ue.RetryAfter
	}
	return o
}

// NewBook is this process's own book of budgets; now is its clock, nil
// meaning time.Now.
func NewBook(now func() time.Time) Book {
	if now == nil {
		now = time.Now
	}
	return newQuotaBook(now)
}

// BudgetError is the refusal of a call when the budget is spent: op is the
// operation, renews how long until the limit renews.
func BudgetError(op string, renews time.Duration) error { return budgetError(op, renews) }

// budgetError is ErrBudgetSpent as an *upstream.Error, so the pages treat
// it as the service's own 429 and know when the limit renews.
func budgetError(op string, renews time.Duration) error {
	return &upstream.Error{Op: op, Status: 429, Kind: upstream.ErrRateLimited, RetryAfter: renews,
		Message: "the hourly request limit is spent", Err: ErrBudgetSpent}
}

// maxBookUsers bounds the users the book remembers; a forgotten user's
// next call simply goes first again.
const maxBookUsers = 100_000

// account is one user's budget as the book knows it. q.Remaining is the
// book's own running count: a reservation takes one at once, and an answer
// can only lower it (another client of the account spent some), never
// raise it, since answers to concurrent calls arrive in any order.
type account struct {
	known     bool // an answer told the quota (or that there is none)
	unlimited bool
	q         upstream.RateLimit
	inFlight  int // reserved calls not yet answered
	// lastLimit is the hourly limit of the window before, shown as the
	// renewed budget until the first answer of the new window.
	lastLimit int
	// guessed: q.Limit is refused's stand-in for a limit no answer told,
	// never carried into lastLimit.
	guessed bool
	// first is open while the first call of an unknown window is in
	// flight; the others wait for it to close.
	first chan struct{}
}

// quotaBook keeps every user's budget.
type quotaBook struct {
	mu       sync.Mutex
	accounts *otter.Cache[string, *account]
	now      func() time.Time
}

func newQuotaBook(now func() time.Time) *quotaBook {
	return &quotaBook{now: now, accounts: otter.Must(&otter.Options[string, *account]{
		MaximumSize:      maxBookUsers,
		ExpiryCalculator: otter.ExpiryAccessing[string, *account](2 * time.Hour),
	})}
}

// accountOf returns the user's account; the caller holds mu.
func (b *quotaBook) accountOf(user string) *account {
	a, ok := b.accounts.GetIfPresent(user)
	if !ok {
		a = &account{}
		b.accounts.Set(user, a)
	}
	if a.known && !a.unlimited && !a.q.RenewsAt().After(b.now()) {
		// The window renewed: its first call tells the new figures.
		a.known, a.lastLimit, a.q = false, a.q.Limit, upstream.RateLimit{}
		if a.guessed {
			a.lastLimit, a.guessed = 0, false
		}
	}
	return a
}

// reservation is one call's claim on a user's budget; done settles it with
// what the service's answer said.
type reservation struct {
	b     *quotaBook
	user  string
	first bool
	taken bool
}

// Reserve claims one request of user's budget for a call, waiting at most
// FirstAnswerWait while another call is learning an unknown quota. It
// refuses with a budget error when nothing is left, and gives up with ctx.
func (b *quotaBook) Reserve(ctx context.Context, user, op string) (Reservation, error) {
	waiting := false
	for {
		b.mu.Lock()
		a := b.accountOf(user)
		switch {
		case !a.known && a.first == nil:
			a.first = make(chan struct{})
			b.mu.Unlock()
			return &reservation{b: b, user: user, first: true}, nil
		case !a.known:
			wait := a.first
			b.mu.Unlock()
			if !waiting {
				// Bounded here, not by every caller: nearly no call waits.
				waiting = true
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, FirstAnswerWait)
				defer cancel()
			}
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, fmt.Errorf("cache: waiting for the first answer of %s: %w", op, ctx.Err())
			}
		case a.unlimited:
			b.mu.Unlock()
			return &reservation{b: b, user: user}, nil
		case a.q.Remaining <= 0:
			renews := a.q.RenewsAt().Sub(b.now())
			b.mu.Unlock()
			return nil, budgetError(op, max(renews, 0))
		default:
			a.q.Remaining--
			a.inFlight++
			b.mu.Unlock()
			return &reservation{b: b, user: user, taken: true}, nil
		}
	}
}

// Done settles the reservation with what the answer said. All of it is
// booked before the calls waiting on a first answer are let go.
func (r *reservation) Done(o Outcome) {
	b := r.b
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.accountOf(r.user)
	if r.taken {
		a.inFlight = max(a.inFlight-1, 0)
		if !o.HasQuota && o.Unanswered && a.known && !a.unlimited {
			// The service never answered: most likely it did not count
			// the call either, so the request goes back to the book.
			a.q.Remaining++
		}
	}
	switch {
	case o.HasQuota:
		b.record(a, o.Seen)
	case o.Succeeded && r.first:
		// An answer without quota headers: the account is unlimited.
		a.known, a.unlimited = true, true
	}
	if o.Refused {
		b.refused(a, o.RetryAfter)
	}
	if r.first && a.first != nil {
		close(a.first)
		a.first = nil
	}
}

// record takes an answer's quota; the caller holds mu. Within the window
// the book knows, the count only goes down; an answer of a new window
// starts the count again, less the calls still in flight.
func (b *quotaBook) record(a *account, q upstream.RateLimit) {
	q.At = b.now() // the book's own clock: renewals are compared with it
	a.guessed = false
	if q.Limit <= 0 {
		a.known, a.unlimited = true, true
		return
	}
	if a.known && !a.unlimited && sameWindow(a.q, q) {
		q.Remaining = min(q.Remaining, a.q.Remaining)
	} else {
		q.Remaining = max(q.Remaining-a.inFlight, 0)
	}
	a.known, a.unlimited, a.q = true, false, q
}

// answered reports whether err came from an answer of the service (a
// status), rather than from never reaching it.
func answered(err error) bool {
	var ue *upstream.Error
	return err == nil || errors.As(err, &ue) && ue.Status > 0
}

func sameWindow(a, b upstream.RateLimit) bool {
	d := a.RenewsAt().Sub(b.RenewsAt())
	return d > -5*time.Second && d < 5*time.Second
}

// refused notes a 429 from the service, whose headers may not have reached
// the observer: nothing is left until the renewal it names. The caller
// holds mu.
func (b *quotaBook) refused(a *account, retryAfter time.Duration) {
	q := a.q
	if !a.known || a.unlimited {
		q = upstream.RateLimit{}
	}
	q.Remaining, q.At, q.Reset = 0, b.now(), retryAfter
	a.guessed = q.Limit <= 0
	if a.guessed {
		q.Limit = 1 // limited, figure unknown: the meter shows "0 of 1" until an answer says more
	}
	a.known, a.unlimited, a.q = true, false, q
}

// Quota returns the user's quota as the book counts it (what the service
// last reported, less the requests reserved since), with when it renews. ok is false for
// unlimited accounts and while the quota is unknown. Limit is 0, with
// nothing remaining, after a refusal that named no limit, until it ends.
func (c *Cache) Quota(user string) (q upstream.RateLimit, ok bool) { return c.quotas.Quota(user) }

// Quota is the user's quota as this book counts it.
func (b *quotaBook) Quota(user string) (q upstream.RateLimit, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.accountOf(user)
	if !a.known && a.lastLimit > 0 {
		// Renewed: the whole hour is there until an answer says otherwise.
		return upstream.RateLimit{Limit: a.lastLimit, Remaining: a.lastLimit, At: b.now(), Reset: time.Hour}, true
	}
	if !a.known || a.unlimited {
		return upstream.RateLimit{}, false
	}
	q = a.q
	if a.guessed {
		q.Limit = 0 // limited, but no answer told by how much
	}
	return q, true
}
