package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"
)

// Deliveries (issue 46): one per event and endpoint, made by the
// dispatcher from the outbox, sent by the job queue, logged with every
// try. The store keeps the state; internal/webhooks sends.

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliveryRetrying  = "retrying"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// maxDeliveryError bounds the error kept of a try.
const maxDeliveryError = 300

// Delivery is one event's delivery to one endpoint, as the log shows it.
type Delivery struct {
	ID         int64
	EventID    int64
	EndpointID int64
	URL        string
	Type       string
	Status     string
	Attempts   int
	// ResponseCode is the last try's HTTP status, 0 when none came back.
	ResponseCode int
	Error        string
	// Round counts replays: a replay is the same message sent again.
	Round         int
	CreatedAt     time.Time
	LastAttemptAt time.Time
	DeliveredAt   time.Time
}

// MessageID is the delivery's webhook-id: the event's, the same for every
// try and replay, so a receiver can tell a message it already has.
func (d Delivery) MessageID() string { return MessageID(d.EventID) }

// MessageID is the webhook-id of the event id.
func MessageID(event int64) string { return fmt.Sprintf("msg_%016x", event) }

// Done tells whether nothing more will be tried (delivered or given up),
// so a replay may start.
func (d Delivery) Done() bool { return d.Status == DeliveryDelivered || d.Status == DeliveryFailed }

// Queued names a delivery's job: the delivery and its round.
type Queued struct {
	Delivery int64
	Round    int
}

// DispatchEvents makes the deliveries of up to n waiting events, one for
// each of the event's team's endpoints that takes its type, and marks the
// events dispatched, in one transaction (replicas dispatching at once
// skip each other's rows on PostgreSQL; SQLite has one writer). It returns
// how many events it dispatched.
func (s *Store) DispatchEvents(ctx context.Context, n int) (int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var waiting bool
	if err := s.r.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM webhook_events WHERE dispatched_at = 0)").Scan(&waiting); err != nil {
		return 0, wrap("dispatch events", err)
	}
	if !waiting {
		return 0, nil
	}
	done := 0
	err := s.auditTx(ctx, "dispatch events", func(tx *sql.Tx) error {
		q := "SELECT id, service, type FROM webhook_events WHERE dispatched_at = 0 ORDER BY created_at, id LIMIT $1"
		if s.engine == Postgres {
			q += " FOR UPDATE SKIP LOCKED"
		}
		type event struct {
			id            int64
			service, kind string
		}
		var events []event
		rows, err := tx.QueryContext(ctx, q, n)
		if err != nil {
			return err
		}
		for rows.Next() {
			var e event
			if err := rows.Scan(&e.id, &e.service, &e.kind); err != nil {
				rows.Close()
				return err
			}
			events = append(events, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		endpoints := map[string][]Webhook{}
		now := s.stamp()
		for _, e := range events {
			ws, ok := endpoints[e.service]
			if !ok {
				if ws, err = teamEndpoints(ctx, tx, e.service); err != nil {
					return err
				}
				endpoints[e.service] = ws
			}
			for _, w := range ws {
				if !w.Takes(e.kind) {
					continue
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (id, service, event_id, endpoint_id, status, created_at)
					VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (event_id, endpoint_id) DO NOTHING`,
					newID(), e.service, e.id, w.ID, DeliveryPending, now); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, "UPDATE webhook_events SET dispatched_at = $2 WHERE id = $1", e.id, now); err != nil {
				return err
			}
			done++
		}
		return nil
	})
	return done, err
}

// teamEndpoints are the team's endpoints in force, inside tx.
func teamEndpoints(ctx context.Context, tx *sql.Tx, service string) ([]Webhook, error) {
	rows, err := tx.QueryContext(ctx, "SELECT id, events FROM webhook_endpoints WHERE service = $1 AND removed_at = 0", service)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Webhook
	for rows.Next() {
		var w Webhook
		var events string
		if err := rows.Scan(&w.ID, &events); err != nil {
			return nil, err
		}
		w.Events = splitEvents(events)
		out = append(out, w)
	}
	return out, rows.Err()
}

// UnqueuedDeliveries are up to n deliveries waiting for their job, oldest
// first: new ones, and any whose job a crash kept from the queue.
func (s *Store) UnqueuedDeliveries(ctx context.Context, n int) ([]Queued, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	rows, err := s.r.QueryContext(ctx, `SELECT id, round FROM webhook_deliveries WHERE queued_at = 0 AND status = $1
		ORDER BY created_at, id LIMIT $2`, DeliveryPending, n)
	if err != nil {
		return nil, wrap("unqueued deliveries", err)
	}
	defer rows.Close()
	var out []Queued
	for rows.Next() {
		var q Queued
		if err := rows.Scan(&q.Delivery, &q.Round); err != nil {
			return nil, wrap("unqueued deliveries", err)
		}
		out = append(out, q)
	}
	return out, wrap("unqueued deliveries", rows.Err())
}

// MarkQueued notes that the delivery's job for round is on the queue.
func (s *Store) MarkQueued(ctx context.Context, q Queued) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	_, err := s.w.ExecContext(ctx, "UPDATE webhook_deliveries SET queued_at = $3 WHERE id = $1 AND round = $2", q.Delivery, q.Round, s.stamp())
	return wrap("mark queued", err)
}

// Send is what a delivery's job sends.
type Send struct {
	Delivery
	Secret string
	Body   []byte
	// Removed: the endpoint was removed since; nothing is sent.
	Removed bool
}

// DeliveryToSend reads a delivery with its endpoint's address and secret
// and its event's payload. ErrNotFound when it is gone (pruned).
func (s *Store) DeliveryToSend(ctx context.Context, id int64) (Send, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var d Send
	var body string
	var created, removed int64
	err := s.r.QueryRowContext(ctx, `SELECT d.id, d.event_id, d.endpoint_id, p.url, e.type, d.status, d.attempts, d.round, d.created_at,
		p.secret, e.body, p.removed_at
		FROM webhook_deliveries d JOIN webhook_endpoints p ON p.id = d.endpoint_id JOIN webhook_events e ON e.id = d.event_id
		WHERE d.id = $1`, id).Scan(&d.ID, &d.EventID, &d.EndpointID, &d.URL, &d.Type, &d.Status, &d.Attempts, &d.Round, &created,
		&d.Secret, &body, &removed)
	if errors.Is(err, sql.ErrNoRows) {
		return d, ErrNotFound
	}
	if err != nil {
		return d, wrap("delivery", err)
	}
	d.CreatedAt, d.Body, d.Removed = fromStamp(created), []byte(body), removed != 0
	return d, nil
}

// Attempt is one try's outcome.
type Attempt struct {
	// Code is the response's status, 0 when none came back.
	Code int
	// Err says why the try failed, "" when delivered.
	Err string
	// GiveUp: no more tries (past the retry window).
	GiveUp bool
}

// RecordAttempt logs a try of round of the delivery: delivered on a 2xx,
// else retrying or, with GiveUp, failed. A try of an earlier round (a
// replay started meanwhile) only counts.
func (s *Store) RecordAttempt(ctx context.Context, id int64, round int, at Attempt) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	now := s.stamp()
	status, delivered := DeliveryRetrying, int64(0)
	switch {
	case at.Code >= 200 && at.Code < 300:
		status, delivered, at.Err = DeliveryDelivered, now, ""
	case at.GiveUp:
		status = DeliveryFailed
	}
	if utf8.RuneCountInString(at.Err) > maxDeliveryError {
		at.Err = string([]rune(at.Err)[:maxDeliveryError-1]) + "…"
	}
	if !cleanText(at.Err) {
		at.Err = "the error was not valid text"
	}
	_, err := s.w.ExecContext(ctx, `UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = $3,
		status = CASE WHEN round = $2 THEN $4 ELSE status END,
		response_code = $5, error = $6,
		delivered_at = CASE WHEN round = $2 THEN CAST($7 AS BIGINT) ELSE delivered_at END
		WHERE id = $1`, id, round, now, status, at.Code, at.Err, delivered)
	return wrap("record attempt", err)
}

// ReplayDelivery sends one of the team's finished deliveries again, as
// the same message (same webhook-id), in a new round, and audits it.
// ErrNotFound for another team's; a *ValidationError while it is still
// being tried.
func (s *Store) ReplayDelivery(ctx context.Context, a Analyst, id int64) (Queued, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Queued{}, err
	}
	var q Queued
	err = s.auditTx(ctx, "replay delivery", func(tx *sql.Tx) error {
		var d Delivery
		var removed int64
		err := tx.QueryRowContext(ctx, `SELECT d.status, d.round, d.event_id, e.type, p.url, p.removed_at FROM webhook_deliveries d
			JOIN webhook_endpoints p ON p.id = d.endpoint_id JOIN webhook_events e ON e.id = d.event_id
			WHERE d.service = $1 AND d.id = $2`, a.Service, id).Scan(&d.Status, &d.Round, &d.EventID, &d.Type, &d.URL, &removed)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		switch {
		case removed != 0:
			return invalid("delivery", "its endpoint was removed")
		case !d.Done():
			return invalid("delivery", "it is still being tried; replay it once it is delivered or given up")
		}
		q = Queued{Delivery: id, Round: d.Round + 1}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = $3, round = $4, queued_at = 0, error = '', delivered_at = 0
			WHERE service = $1 AND id = $2`, a.Service, id, DeliveryPending, q.Round); err != nil {
			return err
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionWebhookReplay,
			NewValue: fmt.Sprintf("%s %s to %s (replay %d)", d.MessageID(), d.Type, clipTo(d.URL, 500), q.Round), Reason: "webhook delivery replayed"})
		return err
	})
	return q, err
}

// WebhookDeliveries is the team's delivery log: the newest deliveries
// first, at most 100.
func (s *Store) WebhookDeliveries(ctx context.Context, a Analyst) ([]Delivery, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT d.id, d.event_id, d.endpoint_id, p.url, e.type, d.status, d.attempts, d.response_code,
		d.error, d.round, d.created_at, d.last_attempt_at, d.delivered_at
		FROM webhook_deliveries d JOIN webhook_endpoints p ON p.id = d.endpoint_id JOIN webhook_events e ON e.id = d.event_id
		WHERE d.service = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT $2`, a.Service, webhookLogLen)
	if err != nil {
		return nil, wrap("webhook deliveries", err)
	}
	defer rows.Close()
	var out []Delivery
	for rows.Next() {
		var d Delivery
		var created, last, delivered int64
		if err := rows.Scan(&d.ID, &d.EventID, &d.EndpointID, &d.URL, &d.Type, &d.Status, &d.Attempts, &d.ResponseCode,
			&d.Error, &d.Round, &created, &last, &delivered); err != nil {
			return nil, wrap("webhook deliveries", err)
		}
		d.CreatedAt = fromStamp(created)
		if last != 0 {
			d.LastAttemptAt = fromStamp(last)
		}
		if delivered != 0 {
			d.DeliveredAt = fromStamp(delivered)
		}
		out = append(out, d)
	}
	return out, wrap("webhook deliveries", rows.Err())
}

// PruneWebhooks forgets finished deliveries made before cutoff, the
// events left without deliveries, and removed endpoints left without any:
// the log keeps a window, not everything ever sent.
func (s *Store) PruneWebhooks(ctx context.Context, cutoff time.Time) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	c := cutoff.UnixMicro()
	return s.auditTx(ctx, "prune webhooks", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM webhook_deliveries WHERE created_at < $1 AND status IN ($2, $3)",
			c, DeliveryDelivered, DeliveryFailed); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_events WHERE dispatched_at <> 0 AND created_at < $1
			AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`, c); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE removed_at <> 0 AND removed_at < $1
			AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = webhook_endpoints.id)`, c)
		return err
	})
}
