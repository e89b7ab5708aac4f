package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// The team's webhook endpoints (issue 46): registered by a manager, each
// with the events it takes and its signing secret; every change audited
// in its own transaction. internal/webhooks checks the address and makes
// the secret; the store keeps them.

// Bounds of webhooks.
const (
	// MaxWebhooks is how many endpoints one team keeps registered.
	MaxWebhooks = 10
	// MaxWebhookURLLen bounds an endpoint's address, in bytes.
	MaxWebhookURLLen = 2000
	// webhookLogLen is how many deliveries the log page lists.
	webhookLogLen = 100
)

// The actions webhook changes are logged under.
const (
	AuditActionWebhookAdd    = "webhook-add"
	AuditActionWebhookRemove = "webhook-remove"
	AuditActionWebhookReplay = "webhook-replay"
)

// ErrWebhooksFull: the team already has MaxWebhooks endpoints.
var ErrWebhooksFull = fmt.Errorf("store: a team registers at most %d webhook endpoints; remove one first", MaxWebhooks)

// Webhook is a registered endpoint.
type Webhook struct {
	ID     int64
	URL    string
	Events []string
	// Secret signs deliveries ("whsec_..."); shown once, when made.
	Secret    string
	CreatedAt time.Time
	CreatedBy string
}

// Takes tells whether the endpoint subscribed to the event type.
func (w Webhook) Takes(typ string) bool {
	for _, e := range w.Events {
		if e == typ {
			return true
		}
	}
	return false
}

// AddWebhook registers an endpoint for the team at url (checked by the
// caller: internal/webhooks refuses private addresses) taking events,
// signed with secret, and audits it (never the secret). ErrWebhooksFull
// past MaxWebhooks.
func (s *Store) AddWebhook(ctx context.Context, a Analyst, url string, events []string, secret string) (Webhook, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Webhook{}, err
	}
	switch {
	case url == "" || len(url) > MaxWebhookURLLen || !utf8.ValidString(url) || strings.ContainsAny(url, "\x00,\r\n"):
		return Webhook{}, invalid("url", "the address is missing, longer than %s characters or not one line of text", grouped(MaxWebhookURLLen))
	case len(events) == 0:
		return Webhook{}, invalid("events", "choose at least one event")
	case !strings.HasPrefix(secret, "whsec_") || len(secret) > 200:
		return Webhook{}, invalid("secret", "not a signing secret")
	}
	for _, e := range events {
		if !ValidEventType(e) {
			return Webhook{}, invalid("events", "%q is not an event", clip(e))
		}
	}
	w := Webhook{ID: newID(), URL: url, Events: events, Secret: secret, CreatedBy: a.User}
	err = s.auditTx(ctx, "add webhook", func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM webhook_endpoints WHERE service = $1 AND removed_at = 0", a.Service).Scan(&n); err != nil {
			return err
		}
		if n >= MaxWebhooks {
			return ErrWebhooksFull
		}
		now := s.stamp()
		w.CreatedAt = fromStamp(now)
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_endpoints (id, service, url, events, secret, created_at, created_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, w.ID, a.Service, url, ","+strings.Join(events, ",")+",", secret, now, a.User); err != nil {
			return err
		}
		_, err := s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionWebhookAdd,
			NewValue: fmt.Sprintf("endpoint %d: %s for %s", w.ID, clipTo(url, 500), strings.Join(events, ", ")), Reason: "webhook endpoint registered"})
		return err
	})
	if errors.Is(err, ErrWebhooksFull) {
		return Webhook{}, err
	}
	return w, err
}

// clipTo shortens s to n characters.
func clipTo(s string, n int) string {
	if utf8.RuneCountInString(s) > n {
		return string([]rune(s)[:n-1]) + "…"
	}
	return s
}

// RemoveWebhook removes one of the team's endpoints and audits it; its
// deliveries stay in the log, and those not yet done are given up.
// ErrNotFound for another team's or one already removed.
func (s *Store) RemoveWebhook(ctx context.Context, a Analyst, id int64) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return err
	}
	return s.auditTx(ctx, "remove webhook", func(tx *sql.Tx) error {
		var url string
		err := tx.QueryRowContext(ctx, "SELECT url FROM webhook_endpoints WHERE service = $1 AND id = $2 AND removed_at = 0", a.Service, id).Scan(&url)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		now := s.stamp()
		if _, err := tx.ExecContext(ctx, "UPDATE webhook_endpoints SET removed_at = $3, removed_by = $4 WHERE service = $1 AND id = $2",
			a.Service, id, now, a.User); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = $3, error = $4 WHERE service = $1 AND endpoint_id = $2
			AND status IN ($5, $6)`, a.Service, id, DeliveryFailed, "the endpoint was removed", DeliveryPending, DeliveryRetrying); err != nil {
			return err
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionWebhookRemove,
			OldValue: fmt.Sprintf("endpoint %d: %s", id, clipTo(url, 500)), Reason: "webhook endpoint removed"})
		return err
	})
}

// Webhooks lists the team's registered endpoints, oldest first, without
// their secrets.
func (s *Store) Webhooks(ctx context.Context, a Analyst) ([]Webhook, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, url, events, created_at, created_by FROM webhook_endpoints
		WHERE service = $1 AND removed_at = 0 ORDER BY created_at, id LIMIT $2`, a.Service, MaxWebhooks)
	if err != nil {
		return nil, wrap("webhooks", err)
	}
	defer rows.Close()
	var out []Webhook
	for rows.Next() {
		var w Webhook
		var events string
		var at int64
		if err := rows.Scan(&w.ID, &w.URL, &events, &at, &w.CreatedBy); err != nil {
			return nil, wrap("webhooks", err)
		}
		w.Events, w.CreatedAt = splitEvents(events), fromStamp(at)
		out = append(out, w)
	}
	return out, wrap("webhooks", rows.Err())
}

// splitEvents reads the comma-framed list of event types.
func splitEvents(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' })
}
