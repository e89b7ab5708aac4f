package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// The team's events (issue 46): what changed, told to the endpoints a
// manager registered (internal/webhooks delivers them). An event is
// written by Emit inside the transaction of the change it tells of: the
// outbox. A change that rolls back leaves no event, and a committed change
// always has its event, whatever happens to the process after the commit.

// The event types: the catalogue endpoints subscribe to.
const (
	// EventLimitChanged: an account's limit in force changed (a decision).
	EventLimitChanged = "limit.changed"
	// EventDecisionMade: a limit request was approved or declined.
	EventDecisionMade = "decision.made"
	// EventAlertRaised: an analyst's alert rule fired.
	EventAlertRaised = "alert.raised"
	// EventApplicationSubmitted: a credit application was submitted.
	EventApplicationSubmitted = "application.submitted"
	// EventApplicationDecided: a credit application was decided.
	EventApplicationDecided = "application.decided"
	// EventImportCompleted: a ledger import committed.
	EventImportCompleted = "import.completed"
	// EventAccountDefaulted: an account was marked defaulted.
	EventAccountDefaulted = "account.defaulted"
)

// EventTypes is the catalogue, in the order pages list it.
var EventTypes = []string{EventLimitChanged, EventDecisionMade, EventAlertRaised, EventApplicationSubmitted,
	EventApplicationDecided, EventImportCompleted, EventAccountDefaulted}

// ValidEventType tells whether t is in the catalogue.
func ValidEventType(t string) bool { return slices.Contains(EventTypes, t) }

// MaxEventBytes bounds one event's payload: data is a summary of the
// change (ids, amounts, names), never a file.
const MaxEventBytes = 64 << 10

// envelope is the payload as the Standard Webhooks specification shapes
// it: the type, when it happened, and the type's own data.
type envelope struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Data      any    `json:"data"`
}

// Emit writes an event of type typ for the team, with data (marshalled as
// JSON into the payload's "data"), inside tx: call it in the transaction
// that makes the change (teamWrite, write), after the change's own
// statements, so the event commits with it or not at all. Nothing is
// written when none of the team's endpoints takes typ: no subscriber, no
// outbox row. A type outside EventTypes or data past MaxEventBytes is an
// error, which rolls the change back: fix the caller.
func (s *Store) Emit(ctx context.Context, tx *sql.Tx, team, typ string, data any) error {
	if !ValidEventType(typ) {
		return fmt.Errorf("store: emit: %q is not an event type", typ)
	}
	var wanted int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_endpoints WHERE service = $1 AND removed_at = 0 AND events LIKE $2`,
		team, "%,"+typ+",%").Scan(&wanted); err != nil {
		return fmt.Errorf("store: emit %s: %w", typ, err)
	}
	if wanted == 0 {
		return nil
	}
	now := s.stamp()
	body, err := json.Marshal(envelope{Type: typ, Timestamp: fromStamp(now).Format(time.RFC3339Nano), Data: data})
	if err != nil {
		return fmt.Errorf("store: emit %s: %w", typ, err)
	}
	if len(body) > MaxEventBytes {
		return fmt.Errorf("store: emit %s: the payload is %d bytes, past %d", typ, len(body), MaxEventBytes)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO webhook_events (id, service, type, body, created_at) VALUES ($1, $2, $3, $4, $5)",
		newID(), team, typ, string(body), now); err != nil {
		return fmt.Errorf("store: emit %s: %w", typ, err)
	}
	return nil
}

// The data of the events the store emits itself. Amounts are numbers in
// the team's currency; times RFC 3339 in UTC.

// LimitChangedData is limit.changed's data.
type LimitChangedData struct {
	Account    string   `json:"account"`
	BusinessID int32    `json:"business_id"`
	OldLimit   *float64 `json:"old_limit"`
	NewLimit   float64  `json:"new_limit"`
	RequestID  int64    `json:"request_id"`
	ChangedBy  string   `json:"changed_by"`
}

// DecisionMadeData is decision.made's data.
type DecisionMadeData struct {
	RequestID   int64    `json:"request_id"`
	Account     string   `json:"account"`
	BusinessID  int32    `json:"business_id"`
	Amount      float64  `json:"amount"`
	Approved    *float64 `json:"approved"`
	OldLimit    *float64 `json:"old_limit"`
	Outcome     string   `json:"outcome"`
	RequestedBy string   `json:"requested_by"`
	DecidedBy   string   `json:"decided_by"`
	DecidedAt   string   `json:"decided_at"`
	Note        string   `json:"note"`
}

// decisionData is the decision.made of a decided request.
func decisionData(r LimitRequest) DecisionMadeData {
	return DecisionMadeData{RequestID: r.ID, Account: r.Account, BusinessID: r.BusinessID, Amount: r.Amount, Approved: r.Approved, OldLimit: r.OldLimit,
		Outcome: r.Status, RequestedBy: r.RequestedBy, DecidedBy: r.DecidedBy, DecidedAt: r.DecidedAt.UTC().Format(time.RFC3339), Note: r.Note}
}

// AlertRaisedData is alert.raised's data.
type AlertRaisedData struct {
	AlertID      int64    `json:"alert_id"`
	Analyst      string   `json:"analyst"`
	RuleID       int64    `json:"rule_id"`
	BusinessID   int32    `json:"business_id"`
	BusinessName string   `json:"business_name"`
	Month        string   `json:"month"`
	OldValue     *float64 `json:"old_value"`
	NewValue     float64  `json:"new_value"`
}

// ImportCompletedData is import.completed's data.
type ImportCompletedData struct {
	ImportID   int64    `json:"import_id"`
	AsOf       string   `json:"as_of"`
	File       string   `json:"file"`
	Mode       string   `json:"mode"`
	Imported   int      `json:"imported"`
	Skipped    int      `json:"skipped"`
	Replaced   bool     `json:"replaced"`
	Dropped    []string `json:"dropped"`
	Summary    string   `json:"summary"`
	ImportedBy string   `json:"imported_by"`
}
