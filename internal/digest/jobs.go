package digest

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"creditdash/internal/store"
)

// maxAttempts is how often a send is tried before it is given up; River
// waits longer after each failure (attempt⁴ seconds).
const maxAttempts = 8

// maxSubscribers bounds the analysts one tick looks at.
const maxSubscribers = 10000

// tickArgs is the periodic job that looks for due digests (one a tick,
// run by the replica River elected leader).
type tickArgs struct{}

// Kind names the job.
func (tickArgs) Kind() string { return "digest_tick" }

// sendArgs is one analyst's digest. Period is the scheduled period
// ("day 2026-11-27", "week 2026-11-23") or, sent on request, "now"
// with the minute; a unique job per analyst and period.
type sendArgs struct {
	Service string `json:"service"`
	User    string `json:"user"`
	Period  string `json:"period"`
}

// Kind names the job.
func (sendArgs) Kind() string { return "digest_send" }

// verifyArgs is a verification mail to the address the analyst gave.
type verifyArgs struct {
	Service string `json:"service"`
	User    string `json:"user"`
	Email   string `json:"email"`
	At      int64  `json:"at"`
}

// Kind names the job.
func (verifyArgs) Kind() string { return "digest_verify" }

// uniqueSend keeps one job per analyst and period in every state but
// cancelled and discarded, finished ones included.
var uniqueSend = &river.InsertOpts{MaxAttempts: maxAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}

// Period is the scheduled period that holds now for the frequency, and
// whether a digest is due in it: every UTC day for daily, Mondays (UTC)
// for weekly, never for off.
func Period(frequency string, now time.Time) (string, bool) {
	now = now.UTC()
	switch frequency {
	case store.DigestDaily:
		return "day " + now.Format(store.DateLayout), true
	case store.DigestWeekly:
		if now.Weekday() == time.Monday {
			return "week " + now.Format(store.DateLayout), true
		}
	}
	return "", false
}

type tickWorker struct {
	river.WorkerDefaults[tickArgs]
	s *Service
}

// Work queues the digest of every subscriber due in the current period
// and not yet sent for it.
func (w *tickWorker) Work(ctx context.Context, _ *river.Job[tickArgs]) error {
	subs, err := w.s.store.Subscribers(ctx, maxSubscribers)
	if err != nil {
		return err
	}
	now := w.s.now()
	for _, sub := range subs {
		period, due := Period(sub.Frequency, now)
		if !due || sub.LastPeriod == period {
			continue
		}
		if _, err := w.s.q.Insert(ctx, sendArgs{Service: sub.Service, User: sub.User, Period: period}, uniqueSend); err != nil {
			return err
		}
	}
	return nil
}

type sendWorker struct {
	river.WorkerDefaults[sendArgs]
	s *Service
}

// Work sends one digest. A scheduled period already sent, or an analyst
// no longer subscribed, is done without a mail; a failed send is noted for
// the settings page and returned, so River retries it with backoff.
func (w *sendWorker) Work(ctx context.Context, job *river.Job[sendArgs]) error {
	a := store.Analyst{Service: job.Args.Service, User: job.Args.User}
	set, err := w.s.store.Digest(ctx, a)
	if err != nil {
		return err
	}
	scheduled := job.Args.Period != "" && job.Args.Period[:3] != "now"
	if !set.Verified || (scheduled && (!set.Subscribed() || set.LastPeriod == job.Args.Period)) {
		return nil
	}
	c, err := w.s.Preview(ctx, a)
	if err != nil {
		return err
	}
	m := w.s.Compose(c, set.Email)
	if err := w.s.sender.Send(ctx, m); err != nil {
		why := fmt.Sprintf("attempt %d of %d: %v", job.Attempt, maxAttempts, err)
		if job.Attempt < maxAttempts {
			why += "; it will be tried again"
		}
		if ferr := w.s.store.DigestFailed(ctx, a, why); ferr != nil {
			w.s.log.Error("digest: noting a failed send", "err", ferr)
		}
		return err
	}
	period := job.Args.Period
	if !scheduled {
		period = ""
	}
	return w.s.store.DigestSent(ctx, a, period)
}

type verifyWorker struct {
	river.WorkerDefaults[verifyArgs]
	s *Service
}

// Work sends the verification mail, if the address is still the one
// asked about.
func (w *verifyWorker) Work(ctx context.Context, job *river.Job[verifyArgs]) error {
	a := store.Analyst{Service: job.Args.Service, User: job.Args.User}
	set, err := w.s.store.Digest(ctx, a)
	if err != nil {
		return err
	}
	if set.Email != job.Args.Email || set.Verified {
		return nil
	}
	return w.s.sender.Send(ctx, w.s.verification(a, set.Email))
}
