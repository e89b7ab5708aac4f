package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Outcome is what a decider does with a pending request.
type Outcome string

// The outcomes, each the status it leaves and the action it is logged as.
const (
	Approve  Outcome = StatusApproved
	Decline  Outcome = StatusDeclined
	Withdraw Outcome = StatusWithdrawn
)

// auditAction is the outcome's action in the team's log.
func (o Outcome) auditAction() string {
	switch o {
	case Approve:
		return AuditActionApprove
	case Decline:
		return AuditActionDecline
	}
	return AuditActionWithdraw
}

// Decide records the outcome of a pending request by a.User, with its
// note (required to decline), in one transaction with its audit entries;
// an approval sets the account's credit limit to the amount asked. The
// store enforces what depends on the record: approving and declining are
// never the requester's (four eyes), withdrawing only the requester's. Of
// two deciders at once exactly one wins; the other gets *ErrDecided with
// the request as decided. ErrNotFound for another team's request.
func (s *Store) Decide(ctx context.Context, a Analyst, id int64, o Outcome, note string) (LimitRequest, error) {
	return s.decide(ctx, a, id, o, note, nil)
}

// ApproveAmount approves a pending request for amount, at most the amount
// asked (a *ValidationError for more), as Decide approves: the approved
// amount becomes the account's limit in force and the audit trail names
// both figures.
func (s *Store) ApproveAmount(ctx context.Context, a Analyst, id int64, amount float64, note string) (LimitRequest, error) {
	if err := CheckAmount(amount, false); err != nil {
		return LimitRequest{}, invalid("amount", "%s", err.Error())
	}
	return s.decide(ctx, a, id, Approve, note, &amount)
}

// decide is Decide with the amount approved: nil for the amount asked.
func (s *Store) decide(ctx context.Context, a Analyst, id int64, o Outcome, note string, approved *float64) (LimitRequest, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return LimitRequest{}, err
	}
	switch {
	case o == Decline:
		if note, err = checkReason("note", note); err != nil {
			return LimitRequest{}, err
		}
	case o == Approve || o == Withdraw:
		if note != "" {
			if note, err = checkReason("note", note); err != nil {
				return LimitRequest{}, err
			}
		}
	default:
		return LimitRequest{}, invalid("outcome", "not an outcome: %q", clip(string(o)))
	}
	var r LimitRequest
	touched := touchNone()
	err = s.teamWriteOf(ctx, a.Service, "decide", touched, func(tx *sql.Tx) error {
		now := s.stamp()
		// The requester's rule in the WHERE clause, so it holds even for a
		// caller that did not check.
		who := "requested_by <> $6"
		if o == Withdraw {
			who = "requested_by = $6"
		}
		// The amount asked never changes once asked, so it is read before
		// the conditional UPDATE that decides.
		asked, err := readRequest(ctx, tx, a.Service, id)
		if err != nil {
			return err
		}
		var amount any
		if o == Approve {
			v := asked.Amount
			if approved != nil {
				v = *approved
			}
			if v > asked.Amount && asked.Status == StatusPending {
				return invalid("amount", "%s is more than the %s asked; approve at most the amount asked", amountText(&v), amountText(&asked.Amount))
			}
			amount = v
		}
		res, err := tx.ExecContext(ctx, `UPDATE limit_requests SET status = $3, decided_by = $6, decided_at = $4, decision_note = $5, approved_amount = $7
			WHERE service = $1 AND id = $2 AND status = 'pending' AND `+who, a.Service, id, string(o), now, note, a.User, amount)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if r, err = readRequest(ctx, tx, a.Service, id); err != nil {
			return err
		}
		touched.Accounts = append(touched.Accounts, r.Account)
		if n == 0 {
			if r.Status != StatusPending {
				return &ErrDecided{Request: r}
			}
			return invalid("decider", "%s may not %s request %d: %s", a.User, o.verb(), id, o.rule())
		}
		what := fmt.Sprintf("request %d for %s", r.ID, amountText(&r.Amount))
		if o == Approve {
			what += fmt.Sprintf(", approved %s", amountText(r.Approved))
		}
		changes := []AuditChange{{Actor: a.User, Action: o.auditAction(), Account: r.Account, BusinessID: r.BusinessID,
			OldValue: StatusPending, NewValue: string(o), Reason: what + ": " + note}}
		if o == Approve {
			c, err := s.setLimit(ctx, tx, a.Service, r)
			if err != nil {
				return err
			}
			changes = append(changes, c)
		}
		if o != Withdraw {
			if err := s.Emit(ctx, tx, a.Service, EventDecisionMade, decisionData(r)); err != nil {
				return err
			}
		}
		// An application waiting on the request is decided with it.
		settled, err := s.settleApplication(ctx, tx, a.Service, r)
		if err != nil {
			return err
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, append(changes, settled...)...)
		return err
	})
	var decided *ErrDecided
	if err != nil && !errors.As(err, &decided) {
		return LimitRequest{}, err
	}
	return r, err
}

// verb is the outcome as a verb.
func (o Outcome) verb() string {
	switch o {
	case Approve:
		return "approve"
	case Decline:
		return "decline"
	}
	return "withdraw"
}

// rule is the store's own rule for the outcome.
func (o Outcome) rule() string {
	if o == Withdraw {
		return "only the requester withdraws a request"
	}
	return "a request is never decided by its requester (four eyes)"
}

// requestColumns are what scanRequest reads, in its order.
const requestColumns = `id, account, business_id, amount, old_limit, reason, calculator, requested_by, requested_at, authority,
	status, decided_by, decided_at, decision_note, approved_amount, policy`

// rowScanner is a row or rows.
type rowScanner interface{ Scan(dest ...any) error }

func scanRequest(row rowScanner) (LimitRequest, error) {
	var r LimitRequest
	var business, at, decided int64
	var old, approved sql.NullFloat64
	err := row.Scan(&r.ID, &r.Account, &business, &r.Amount, &old, &r.Reason, &r.Calculator, &r.RequestedBy, &at, &r.Authority,
		&r.Status, &r.DecidedBy, &decided, &r.Note, &approved, &r.Policy)
	if err != nil {
		return r, err
	}
	r.BusinessID, r.RequestedAt = int32(business), fromStamp(at)
	if old.Valid {
		r.OldLimit = &old.Float64
	}
	if approved.Valid {
		r.Approved = &approved.Float64
	}
	if decided != 0 {
		r.DecidedAt = fromStamp(decided)
	}
	return r, nil
}

// readRequest reads one of the team's requests with its evidence list.
func readRequest(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, service string, id int64) (LimitRequest, error) {
	r, err := scanRequest(q.QueryRowContext(ctx, "SELECT "+requestColumns+" FROM limit_requests WHERE service = $1 AND id = $2", service, id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, ErrNotFound
	}
	if err != nil {
		return r, err
	}
	rows, err := q.QueryContext(ctx, "SELECT tab, fetched_at FROM request_evidence WHERE request_id = $1 ORDER BY tab", id)
	if err != nil {
		return r, err
	}
	defer rows.Close()
	for rows.Next() {
		var e Evidence
		var at int64
		if err := rows.Scan(&e.Tab, &at); err != nil {
			return r, err
		}
		e.Fetched = fromStamp(at)
		r.Evidence = append(r.Evidence, e)
	}
	return r, rows.Err()
}

// Request reads one of the team's requests; ErrNotFound for another
// team's.
func (s *Store) Request(ctx context.Context, a Analyst, id int64) (LimitRequest, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return LimitRequest{}, err
	}
	r, err := readRequest(ctx, s.r, a.Service, id)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return r, wrap("request", err)
	}
	return r, err
}

// RequestEvidence reads one copy a request keeps, with its data.
func (s *Store) RequestEvidence(ctx context.Context, a Analyst, id int64, tab string) (Evidence, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Evidence{}, err
	}
	e := Evidence{Tab: tab}
	var at int64
	var data string
	err = s.r.QueryRowContext(ctx, `SELECT e.fetched_at, e.data FROM request_evidence e JOIN limit_requests r ON r.id = e.request_id
		WHERE r.service = $1 AND r.id = $2 AND e.tab = $3`, a.Service, id, tab).Scan(&at, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return e, ErrNotFound
	}
	if err != nil {
		return e, wrap("request evidence", err)
	}
	e.Fetched, e.Data = fromStamp(at), []byte(data)
	return e, nil
}
