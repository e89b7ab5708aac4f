package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"
)

// eventsOf are the team's events in the outbox, oldest first, as type and
// payload.
func eventsOf(t *testing.T, s *Store, team string) (types []string, bodies []map[string]any) {
	t.Helper()
	rows, err := s.r.QueryContext(t.Context(), "SELECT type, body FROM webhook_events WHERE service = $1 ORDER BY created_at, id", team)
	must(t, err)
	defer rows.Close()
	for rows.Next() {
		var typ, body string
		must(t, rows.Scan(&typ, &body))
		var m map[string]any
		must(t, json.Unmarshal([]byte(body), &m))
		types, bodies = append(types, typ), append(bodies, m)
	}
	must(t, rows.Err())
	return types, bodies
}

// TestEventsCommitWithTheirChange: with an endpoint taking the events, a
// decision (part of the amount approved) writes decision.made and
// limit.changed in its transaction, an
// import import.completed, an alert alert.raised; a change that fails
// after emitting leaves none, and a type nobody takes is not written.
func TestEventsCommitWithTheirChange(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		withAccounts(t, s) // before any endpoint: nothing written
		if types, _ := eventsOf(t, s, alice.Service); len(types) != 0 {
			t.Fatalf("events without an endpoint: %v", types)
		}
		_, err := s.AddWebhook(ctx, alice, "https://erp.example.com/hooks", []string{EventLimitChanged, EventDecisionMade, EventImportCompleted}, "whsec_c2VjcmV0")
		must(t, err)
		r, err := s.RequestLimit(ctx, bob, RequestSpec{Account: "A-2", Amount: 9000, Reason: "new terms", Authority: 1000})
		must(t, err)
		if types, _ := eventsOf(t, s, alice.Service); len(types) != 0 {
			t.Fatalf("a waiting request wrote events: %v", types)
		}
		_, err = s.ApproveAmount(ctx, carol, r.ID, 8000, "part of it")
		must(t, err)
		_, err = s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-11-30"), File: "nov.csv", Lines: []LedgerLine{line("A-1", 1001, 1200)}, Update: true})
		must(t, err)

		// A change that fails after it emitted: its events roll back with it.
		boom := errors.New("boom")
		err = s.teamWrite(ctx, alice.Service, "failing change", func(tx *sql.Tx) error {
			if err := s.Emit(ctx, tx, alice.Service, EventLimitChanged, LimitChangedData{Account: "A-1", NewLimit: 1}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("failing change: %v", err)
		}
		// alert.raised is not taken by the endpoint: not written.
		err = s.teamWrite(ctx, alice.Service, "alert", func(tx *sql.Tx) error {
			return s.Emit(ctx, tx, alice.Service, EventAlertRaised, AlertRaisedData{AlertID: 1})
		})
		must(t, err)
		err = s.teamWrite(ctx, alice.Service, "bad type", func(tx *sql.Tx) error { return s.Emit(ctx, tx, alice.Service, "limit.moved", nil) })
		if err == nil {
			t.Fatal("an unknown event type was emitted")
		}

		types, bodies := eventsOf(t, s, alice.Service)
		want := []string{EventLimitChanged, EventDecisionMade, EventImportCompleted}
		if !slices.Equal(types, want) {
			t.Fatalf("events = %v, want %v", types, want)
		}
		limit := bodies[0]["data"].(map[string]any)
		if bodies[0]["type"] != EventLimitChanged || limit["account"] != "A-2" || limit["new_limit"] != 8000.0 || limit["changed_by"] != "carol" {
			t.Errorf("limit.changed = %v", bodies[0])
		}
		decision := bodies[1]["data"].(map[string]any)
		if decision["outcome"] != StatusApproved || decision["requested_by"] != "bob" || decision["decided_by"] != "carol" || decision["amount"] != 9000.0 || decision["approved"] != 8000.0 {
			t.Errorf("decision.made = %v", bodies[1])
		}
		if imp := bodies[2]["data"].(map[string]any); imp["file"] != "nov.csv" || imp["mode"] != ModeUpdate || imp["imported"] != 1.0 {
			t.Errorf("import.completed = %v", bodies[2])
		}
		if _, err := time.Parse(time.RFC3339Nano, bodies[0]["timestamp"].(string)); err != nil {
			t.Errorf("timestamp: %v", err)
		}
	})
}

// TestDeliveriesLife: events are dispatched to the endpoints that take
// them, once; a try is logged; a finished delivery is replayed in a new
// round (audited), an unfinished one is not; a removed endpoint's
// deliveries are given up; the bound on endpoints holds.
func TestDeliveriesLife(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		withAccounts(t, s)
		all, err := s.AddWebhook(ctx, alice, "https://a.example.com/", EventTypes, "whsec_YQ==")
		must(t, err)
		_, err = s.AddWebhook(ctx, alice, "https://b.example.com/", []string{EventAlertRaised}, "whsec_Yg==")
		must(t, err)
		_, err = s.RequestLimit(ctx, bob, RequestSpec{Account: "A-2", Amount: 900, Reason: "x", Authority: 1000})
		must(t, err)
		n, err := s.DispatchEvents(ctx, 100)
		must(t, err)
		if n != 2 {
			t.Fatalf("dispatched %d events, want 2", n)
		}
		if n, err = s.DispatchEvents(ctx, 100); err != nil || n != 0 {
			t.Fatalf("second dispatch: %d, %v", n, err)
		}
		queued, err := s.UnqueuedDeliveries(ctx, 100)
		must(t, err)
		if len(queued) != 2 {
			t.Fatalf("%d deliveries waiting, want 2 (both events to endpoint a)", len(queued))
		}
		for _, q := range queued {
			must(t, s.MarkQueued(ctx, q))
		}
		if again, _ := s.UnqueuedDeliveries(ctx, 100); len(again) != 0 {
			t.Fatalf("queued deliveries listed again: %v", again)
		}
		send, err := s.DeliveryToSend(ctx, queued[0].Delivery)
		must(t, err)
		if send.URL != all.URL || send.Secret != "whsec_YQ==" || len(send.Body) == 0 || send.MessageID() != MessageID(send.EventID) {
			t.Fatalf("to send = %+v", send)
		}
		must(t, s.RecordAttempt(ctx, send.ID, 0, Attempt{Code: 500, Err: "answered 500"}))
		_, err = s.ReplayDelivery(ctx, alice, send.ID)
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("replay while retrying: %v", err)
		}
		must(t, s.RecordAttempt(ctx, send.ID, 0, Attempt{Code: 204}))
		log, err := s.WebhookDeliveries(ctx, alice)
		must(t, err)
		var d Delivery
		for _, l := range log {
			if l.ID == send.ID {
				d = l
			}
		}
		if d.Status != DeliveryDelivered || d.Attempts != 2 || d.ResponseCode != 204 || d.DeliveredAt.IsZero() || d.Error != "" {
			t.Fatalf("delivery after 500 then 204 = %+v", d)
		}
		if _, err := s.ReplayDelivery(ctx, aliceElse, send.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("another team's replay: %v", err)
		}
		q, err := s.ReplayDelivery(ctx, alice, send.ID)
		must(t, err)
		if q.Round != 1 {
			t.Fatalf("replay round %d, want 1", q.Round)
		}
		if waiting, _ := s.UnqueuedDeliveries(ctx, 100); len(waiting) != 1 || waiting[0] != q {
			t.Fatalf("after replay waiting = %v", waiting)
		}
		if es := auditOf(t, s, alice.Service, ""); es[len(es)-1].Action != AuditActionWebhookReplay {
			t.Errorf("last entry %+v, want the replay", es[len(es)-1])
		}

		must(t, s.RemoveWebhook(ctx, alice, all.ID))
		log, err = s.WebhookDeliveries(ctx, alice)
		must(t, err)
		for _, l := range log {
			if l.Status != DeliveryFailed && l.Status != DeliveryDelivered {
				t.Errorf("after removal a delivery is %s", l.Status)
			}
		}
		if err := s.RemoveWebhook(ctx, alice, all.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("removing twice: %v", err)
		}
		for i := 1; i < MaxWebhooks; i++ {
			_, err := s.AddWebhook(ctx, alice, "https://c.example.com/", []string{EventAlertRaised}, "whsec_Yw==")
			must(t, err)
		}
		if _, err := s.AddWebhook(ctx, alice, "https://d.example.com/", []string{EventAlertRaised}, "whsec_Yw=="); !errors.Is(err, ErrWebhooksFull) {
			t.Fatalf("past the bound: %v", err)
		}
		ws, err := s.Webhooks(ctx, alice)
		must(t, err)
		if len(ws) != MaxWebhooks || ws[0].Secret != "" {
			t.Fatalf("%d endpoints listed (secret %q)", len(ws), ws[0].Secret)
		}
		must(t, s.PruneWebhooks(context.Background(), time.Now().Add(24*time.Hour)))
	})
}
