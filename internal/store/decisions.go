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

// Credit decisions (issue 27): a limit request keeps its evidence and ends
// approved, declined or withdrawn. Who may decide is the handlers' rule
// (roles, authority); the store keeps the one rule only it can enforce:
// a request is decided once, by a conditional update on its status, so of
// two deciders exactly one wins and the other reads what happened.

// Bounds of requests.
const (
	// MaxPendingRequests is how many requests one team keeps waiting.
	MaxPendingRequests = 1000
	// MaxRequestReasonLen bounds a request's reason and a decision's note,
	// in characters.
	MaxRequestReasonLen = 2000
	// maxCalculatorLen bounds the calculator's text kept with a request.
	maxCalculatorLen = 4000
)

// Request statuses.
const (
	StatusPending   = "pending"
	StatusApproved  = "approved"
	StatusDeclined  = "declined"
	StatusWithdrawn = "withdrawn"
)

// The actions requests are logged under.
const (
	AuditActionRequest  = "limit-request"
	AuditActionApprove  = "approve"
	AuditActionDecline  = "decline"
	AuditActionWithdraw = "withdraw"
	// AuditActionRefused is a request or decision refused by a rule.
	AuditActionRefused = "refused"
)

// ErrRequestsFull: the team already has MaxPendingRequests waiting.
var ErrRequestsFull = fmt.Errorf("store: a team keeps at most %s limit requests waiting; decide or withdraw some first", grouped(MaxPendingRequests))

// ErrDecided: the request is no longer pending; the error's request says
// who decided it and how.
type ErrDecided struct{ Request LimitRequest }

// Error implements error.
func (e *ErrDecided) Error() string {
	return fmt.Sprintf("store: request %d was already %s by %s", e.Request.ID, e.Request.Status, e.Request.DecidedBy)
}

// Evidence is a dated copy a request keeps: a report tab's service data.
type Evidence struct {
	Tab     string
	Fetched time.Time
	// Data is the tab's data as JSON, kept verbatim.
	Data []byte
}

// RequestSpec is a limit request as asked.
type RequestSpec struct {
	Account string
	Amount  float64
	Reason  string
	// Calculator is the calculator's inputs and result as text, "" when
	// the request did not come from it.
	Calculator string
	// Authority is the requester's authority: at or above Amount, the
	// request is approved at once.
	Authority float64
	Evidence  []Evidence
	// Policy is the at-once rule of the team's policy in force for the
	// account's class, nil when no policy is in force: above its amount
	// the request waits for a second person, whatever the authority.
	Policy *PolicyAtOnce
}

// PolicyAtOnce is what the policy in force lets a requester decide at
// once for one account: limits up to Max in Class (0: none), and never
// above the class's policy limit (Limit; none when LimitKnown is false).
type PolicyAtOnce struct {
	Version int
	Class   string
	Max     float64
	// Limit is the policy's limit for the account; a request above it,
	// or with no limit worked out, waits for a second person.
	Limit      float64
	LimitKnown bool
	// Note words the rule and its figures, kept with the request.
	Note string
}

// allows says the policy lets amount be decided at once.
func (p *PolicyAtOnce) allows(amount float64) bool {
	return p == nil || p.Max > 0 && amount <= p.Max && p.LimitKnown && amount <= p.Limit
}

// why says why the policy does not let amount be decided at once ("" when
// it does).
func (p *PolicyAtOnce) why(amount float64) string {
	switch {
	case p.allows(amount):
		return ""
	case !p.LimitKnown:
		return fmt.Sprintf("policy version %d works out no limit for class %s", p.Version, p.Class)
	case amount > p.Limit:
		return fmt.Sprintf("above policy version %d's limit of %s for the account (class %s)", p.Version, amountText(&p.Limit), p.Class)
	}
	return fmt.Sprintf("above policy version %d's at-once amount of %s for class %s", p.Version, amountText(&p.Max), p.Class)
}

// LimitRequest is a request as kept.
type LimitRequest struct {
	ID          int64
	Account     string
	BusinessID  int32
	Amount      float64
	OldLimit    *float64
	Reason      string
	Calculator  string
	RequestedBy string
	RequestedAt time.Time
	Authority   float64
	Status      string
	// DecidedBy, DecidedAt and Note are the decision; empty while pending.
	DecidedBy string
	DecidedAt time.Time
	Note      string
	// Approved is the amount approved, the limit it set: at most Amount;
	// nil unless approved.
	Approved *float64
	// Evidence lists the copies kept, without their data.
	Evidence []Evidence
	// Policy is what the credit policy in force said of the request when
	// it was asked, in words ("" none in force).
	Policy string
}

// checkReason refuses a missing or overlong reason for field.
func checkReason(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", invalid(field, "a reason is required")
	case utf8.RuneCountInString(s) > MaxRequestReasonLen:
		return "", invalid(field, "the reason is longer than %s characters", grouped(MaxRequestReasonLen))
	case !cleanText(s):
		return "", invalid(field, "the reason is not valid text")
	}
	return s, nil
}

// RequestLimit records a limit request for the team's account with its
// evidence, in one transaction with its audit entries. Within the
// requester's authority it is approved at once and the account's limit
// set. ErrNotFound when the team has no such account; ErrRequestsFull
// past MaxPendingRequests waiting.
func (s *Store) RequestLimit(ctx context.Context, a Analyst, spec RequestSpec) (LimitRequest, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return LimitRequest{}, err
	}
	if err := checkRequestSpec(&spec); err != nil {
		return LimitRequest{}, err
	}
	var r LimitRequest
	touched := touchAccounts(strings.TrimSpace(spec.Account))
	err = s.teamWriteOf(ctx, a.Service, "request limit", touched, func(tx *sql.Tx) error {
		r, err = s.requestLimitTx(ctx, tx, a, spec)
		return err
	})
	if err != nil {
		return LimitRequest{}, err
	}
	return r, nil
}

// checkRequestSpec refuses a request's amount, reason, calculator text or
// evidence that is not one a request keeps.
func checkRequestSpec(spec *RequestSpec) error {
	var err error
	if err := CheckAmount(spec.Amount, false); err != nil {
		return invalid("amount", "%s", err.Error())
	}
	if spec.Reason, err = checkReason("reason", spec.Reason); err != nil {
		return err
	}
	if p := spec.Policy; p != nil && (utf8.RuneCountInString(p.Note) > maxCalculatorLen || !cleanText(p.Note)) {
		return invalid("policy", "the policy's words are not text of up to %d characters", maxCalculatorLen)
	}
	if utf8.RuneCountInString(spec.Calculator) > maxCalculatorLen || !cleanText(spec.Calculator) {
		return invalid("calculator", "the calculator's result is not text of up to %d characters", maxCalculatorLen)
	}
	for _, e := range spec.Evidence {
		if !tabPattern.MatchString(e.Tab) || len(e.Data) > MaxSnapshotBytes {
			return invalid("evidence", "a copy of tab %q is not one a request keeps", clip(e.Tab))
		}
	}
	return nil
}

// requestLimitTx records the checked request inside tx (see RequestLimit):
// the way an application's approval asks for its limit in the same
// transaction as the account it creates.
func (s *Store) requestLimitTx(ctx context.Context, tx *sql.Tx, a Analyst, spec RequestSpec) (LimitRequest, error) {
	r := LimitRequest{ID: newID(), Account: strings.TrimSpace(spec.Account), Amount: spec.Amount, Reason: spec.Reason,
		Calculator: spec.Calculator, RequestedBy: a.User, Authority: spec.Authority, Status: StatusPending}
	if p := spec.Policy; p != nil {
		r.Policy = p.Note
		if why := p.why(spec.Amount); why != "" {
			r.Policy += " Not decided at once: " + why + "."
		}
	}
	now := s.stamp()
	r.RequestedAt = fromStamp(now)
	var business int64
	var err error
	if business, r.OldLimit, err = accountLimit(ctx, tx, a.Service, r.Account); err != nil {
		return r, err
	}
	r.BusinessID = int32(business)
	var pending int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM limit_requests WHERE service = $1 AND status = $2",
		a.Service, StatusPending).Scan(&pending); err != nil {
		return r, err
	}
	if pending >= MaxPendingRequests {
		return r, ErrRequestsFull
	}
	changes := []AuditChange{{Actor: a.User, Action: AuditActionRequest, Account: r.Account, BusinessID: r.BusinessID,
		OldValue: amountText(r.OldLimit), NewValue: amountText(&r.Amount), Reason: requestAudit(r)}}
	if spec.Amount <= spec.Authority && spec.Policy.allows(spec.Amount) {
		r.Status, r.DecidedBy, r.DecidedAt, r.Note = StatusApproved, a.User, r.RequestedAt, "within the requester's own authority"
		r.Approved = &r.Amount
		why := fmt.Sprintf("request %d approved at once: within %s's authority of %s", r.ID, a.User, amountText(&spec.Authority))
		if p := spec.Policy; p != nil {
			r.Note += fmt.Sprintf(" and policy version %d's at-once amount and limit for class %s", p.Version, p.Class)
			why += fmt.Sprintf(" and policy version %d's at-once amount of %s and limit of %s for class %s", p.Version, amountText(&p.Max), amountText(&p.Limit), p.Class)
		}
		c, err := s.setLimit(ctx, tx, a.Service, r)
		if err != nil {
			return r, err
		}
		changes = append(changes, AuditChange{Actor: a.User, Action: AuditActionApprove, Account: r.Account, BusinessID: r.BusinessID,
			NewValue: amountText(&r.Amount), Reason: why}, c)
		if err := s.Emit(ctx, tx, a.Service, EventDecisionMade, decisionData(r)); err != nil {
			return r, err
		}
	}
	var old any
	if r.OldLimit != nil {
		old = *r.OldLimit
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO limit_requests (id, service, account, business_id, amount, old_limit, reason, calculator,
		requested_by, requested_at, authority, status, decided_by, decided_at, decision_note, approved_amount, policy)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
		r.ID, a.Service, r.Account, business, r.Amount, old, r.Reason, r.Calculator, a.User, now, r.Authority,
		r.Status, r.DecidedBy, stampOf(r.DecidedAt), r.Note, nullAmount(r.Approved), r.Policy); err != nil {
		return r, err
	}
	for _, e := range spec.Evidence {
		if _, err := tx.ExecContext(ctx, "INSERT INTO request_evidence (request_id, tab, fetched_at, data) VALUES ($1, $2, $3, $4)",
			r.ID, e.Tab, e.Fetched.UnixMicro(), string(e.Data)); err != nil {
			return r, err
		}
		r.Evidence = append(r.Evidence, Evidence{Tab: e.Tab, Fetched: fromStamp(e.Fetched.UnixMicro())})
	}
	_, err = s.appendAuditTx(ctx, tx, a.Service, changes...)
	return r, err
}

// requestAudit is a request's audit reason: its own, then what the
// credit policy in force said of it, within the audit's bound.
func requestAudit(r LimitRequest) string {
	s := fmt.Sprintf("request %d: %s", r.ID, r.Reason)
	if r.Policy != "" {
		s += " [" + r.Policy + "]"
	}
	return clipTo(s, MaxAuditReasonLen)
}

// nullAmount is an optional amount as stored: NULL for none.
func nullAmount(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

// stampOf is a time as stored: 0 for none.
func stampOf(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMicro()
}

// accountLimit reads the team's account: its business and its limit in
// force. ErrNotFound for no such account.
func accountLimit(ctx context.Context, tx *sql.Tx, service, account string) (int64, *float64, error) {
	var business int64
	var limit sql.NullFloat64
	err := tx.QueryRowContext(ctx, "SELECT business_id, credit_limit FROM team_accounts WHERE service = $1 AND account = $2",
		service, account).Scan(&business, &limit)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, ErrNotFound
	}
	if err != nil {
		return 0, nil, err
	}
	if limit.Valid {
		return business, &limit.Float64, nil
	}
	return business, nil, nil
}

// setLimit makes the approved amount the account's limit in force, in its
// record (no import changes it), and returns the change to log.
func (s *Store) setLimit(ctx context.Context, tx *sql.Tx, service string, r LimitRequest) (AuditChange, error) {
	_, was, err := accountLimit(ctx, tx, service, r.Account)
	if err != nil {
		return AuditChange{}, err
	}
	_, err = tx.ExecContext(ctx, `UPDATE team_accounts SET credit_limit = $3, updated_at = $4, updated_by = $5
		WHERE service = $1 AND account = $2`, service, r.Account, *r.Approved, s.stamp(), r.DecidedBy)
	if err != nil {
		return AuditChange{}, err
	}
	if err := s.Emit(ctx, tx, service, EventLimitChanged, LimitChangedData{Account: r.Account, BusinessID: r.BusinessID,
		OldLimit: was, NewLimit: *r.Approved, RequestID: r.ID, ChangedBy: r.DecidedBy}); err != nil {
		return AuditChange{}, err
	}
	return AuditChange{Actor: r.DecidedBy, Action: AuditActionLimit, Account: r.Account, BusinessID: r.BusinessID,
		OldValue: amountText(was), NewValue: amountText(r.Approved), Reason: fmt.Sprintf("request %d approved by %s: %s of %s asked",
			r.ID, r.DecidedBy, amountText(r.Approved), amountText(&r.Amount))}, nil
}
