package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/riverqueue/river"

	"creditdash/internal/store"
)

// deliverArgs is one round of one delivery: a replay is a new round, so
// a job of it is new, while the message (webhook-id) stays the same.
type deliverArgs struct {
	Delivery int64 `json:"delivery"`
	Round    int   `json:"round"`
}

// Kind names the job.
func (deliverArgs) Kind() string { return "webhook_deliver" }

type deliverWorker struct {
	river.WorkerDefaults[deliverArgs]
	s *Service
}

// Timeout is one try's bound and a little more for the log.
func (w *deliverWorker) Timeout(*river.Job[deliverArgs]) time.Duration {
	return w.s.cfg.Timeout + 5*time.Second
}

// NextRetry is the exponential backoff: RetryBase after the first failed
// try, twice as long after each next one, at most maxRetryWait.
func (w *deliverWorker) NextRetry(job *river.Job[deliverArgs]) time.Time {
	return time.Now().Add(w.s.backoff(job.Attempt))
}

// backoff is the wait after the attempt-th failed try.
func (s *Service) backoff(attempt int) time.Duration {
	d := s.cfg.RetryBase
	for i := 1; i < attempt && d < maxRetryWait; i++ {
		d *= 2
	}
	return min(d, maxRetryWait)
}

// Work sends the delivery once and logs the try. A delivery gone,
// removed, already finished or replaced by a newer round is done without
// sending. A failure is returned for River to retry after the backoff,
// until the next try would fall past the window from the round's first:
// then the delivery is given up.
func (w *deliverWorker) Work(ctx context.Context, job *river.Job[deliverArgs]) error {
	s := w.s
	d, err := s.store.DeliveryToSend(ctx, job.Args.Delivery)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if d.Removed || d.Round != job.Args.Round || d.Done() {
		return nil
	}
	code, sendErr := s.send(ctx, d)
	giveUp := sendErr != nil && (time.Since(job.CreatedAt)+s.backoff(job.Attempt) > s.cfg.Window || job.Attempt >= job.MaxAttempts)
	at := store.Attempt{Code: code, GiveUp: giveUp}
	if sendErr != nil {
		at.Err = sendErr.Error()
	}
	if err := s.store.RecordAttempt(ctx, d.ID, d.Round, at); err != nil {
		s.log.Error("webhooks: logging a try", "err", err)
	}
	switch {
	case sendErr == nil:
		return nil
	case giveUp:
		return river.JobCancel(sendErr)
	}
	return sendErr
}

// send posts the message once: the event's payload, signed now. It
// returns the answer's status; an error unless it is 2xx.
func (s *Service) send(ctx context.Context, d store.Send) (int, error) {
	ts := s.now()
	sig, err := Sign(d.Secret, d.MessageID(), ts, d.Body)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		return 0, fmt.Errorf("the address is not usable: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "CreditDash-Webhooks/1")
	req.Header.Set("webhook-id", d.MessageID())
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, err
	}
	// Read a little of the answer so the connection can be reused; the
	// rest is dropped with the connection.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponse))
	resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return resp.StatusCode, nil
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return resp.StatusCode, fmt.Errorf("answered %d; redirects are not followed: register the address it points to", resp.StatusCode)
	}
	return resp.StatusCode, fmt.Errorf("answered %d", resp.StatusCode)
}
