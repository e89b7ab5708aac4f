package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The team's side of an application: its match to the service's
// business, the report pulled once, the decision through the limit rules
// (decisions.go) and the outcome mail; and its references' answers.

// AppDecision is what a decider does with a submitted application.
type AppDecision struct {
	Approve bool
	// Account is the new account's key; "" means the application's number
	// (ApplicationAccount).
	Account string
	Amount  float64
	// Note is the approval's note or the decline's reason.
	Note string
	// Authority is the decider's: within it an approval takes effect at
	// once, above it it waits as a limit request for four eyes.
	Authority float64
	// Policy is the credit policy's rule for the new account (nil when
	// none is in force), as for any limit request.
	Policy *PolicyAtOnce
}

// ApplicationAccount is the account key an approval gives by default.
func ApplicationAccount(number int64) string { return fmt.Sprintf("APP-%d", number) }

// MatchApplication links the team's submitted application to the
// service's business, confirmed (or corrected) by a.User, audited.
func (s *Store) MatchApplication(ctx context.Context, a Analyst, id int64, business int32, how string) (Application, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Application{}, err
	}
	if err := checkBusiness(business); err != nil {
		return Application{}, err
	}
	var app Application
	err = s.teamApplicationWrite(ctx, a, id, "match application", func(tx *sql.Tx, cur Application) error {
		if cur.Status != AppSubmitted {
			return invalid("status", "application %d is %s; only a submitted, undecided application is matched", cur.Number, cur.Status)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE applications SET business_id = $2, matched_by = $3, updated_at = $4 WHERE id = $1",
			id, int64(business), a.User, s.stamp()); err != nil {
			return err
		}
		app = cur
		app.BusinessID, app.MatchedBy = business, a.User
		_, err := s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionAppMatch, BusinessID: business,
			OldValue: businessText(cur.BusinessID), NewValue: businessText(business), Reason: fmt.Sprintf("application %d: %s", cur.Number, how)})
		return err
	})
	return app, err
}

// ApplicationData is application.submitted's and application.decided's
// data: what was decided, never the applicant's answers or files.
type ApplicationData struct {
	ApplicationID int64    `json:"application_id"`
	Number        int64    `json:"number"`
	Company       string   `json:"company"`
	Status        string   `json:"status"`
	Account       string   `json:"account,omitempty"`
	BusinessID    int32    `json:"business_id,omitempty"`
	Amount        *float64 `json:"amount,omitempty"`
	RequestID     int64    `json:"request_id,omitempty"`
	By            string   `json:"by"`
}

// applicationData is an application's event data, by who.
func applicationData(app Application, by string) ApplicationData {
	return ApplicationData{ApplicationID: app.ID, Number: app.Number, Company: app.Company, Status: app.Status, Account: app.Account,
		BusinessID: app.BusinessID, Amount: app.DecidedAmount, RequestID: app.RequestID, By: by}
}

// businessText is a business id as an entry's value.
func businessText(id int32) string {
	if id == 0 {
		return ""
	}
	return fmt.Sprint(id)
}

// NoteApplicationReport records that a.User pulls the matched business's
// report for the application: first is false when it was pulled before
// (by whom and when is on the application), so it is paid for once.
func (s *Store) NoteApplicationReport(ctx context.Context, a Analyst, id int64) (app Application, first bool, err error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if a, err = team(a); err != nil {
		return app, false, err
	}
	err = s.teamApplicationWrite(ctx, a, id, "application report", func(tx *sql.Tx, cur Application) error {
		app = cur
		if cur.BusinessID == 0 {
			return invalid("business", "match application %d to a business first", cur.Number)
		}
		res, err := tx.ExecContext(ctx, "UPDATE applications SET report_at = $2, report_by = $3 WHERE id = $1 AND report_at = 0", id, s.stamp(), a.User)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		first = true
		app.ReportAt, app.ReportBy = fromStamp(s.stamp()), a.User
		_, err = s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionAppReport, BusinessID: cur.BusinessID,
			NewValue: "report pulled", Reason: fmt.Sprintf("application %d: the matched business's report, pulled once", cur.Number)})
		return err
	})
	return app, first, err
}

// teamApplicationWrite runs fn on the team's application in one team
// write; ErrNotFound for another team's.
func (s *Store) teamApplicationWrite(ctx context.Context, a Analyst, id int64, op string, fn func(tx *sql.Tx, cur Application) error) error {
	return s.teamWrite(ctx, a.Service, op, func(tx *sql.Tx) error {
		cur, err := scanApplication(tx.QueryRowContext(ctx, "SELECT "+appColumns+" FROM applications WHERE id = $1 AND service = $2", id, a.Service))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		return fn(tx, cur)
	})
}

// DecideApplication approves or declines the team's submitted
// application in one transaction with its audit entries. An approval
// needs the application matched; it creates the account (d.Account, or
// the application's number) linked to the business and asks its limit as
// a limit request under d.Authority: within it the limit is set at once
// and the application approved; above it the request waits for another
// manager (four eyes) and the application with it (AppWaiting), settled
// when the request is decided (Decide). Of two deciders at once one wins;
// the other gets a ValidationError naming the status.
func (s *Store) DecideApplication(ctx context.Context, a Analyst, id int64, d AppDecision) (Application, LimitRequest, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Application{}, LimitRequest{}, err
	}
	if d.Note, err = checkReason("note", d.Note); err != nil {
		return Application{}, LimitRequest{}, err
	}
	var app Application
	var r LimitRequest
	err = s.teamApplicationWrite(ctx, a, id, "decide application", func(tx *sql.Tx, cur Application) error {
		now := s.stamp()
		// The claim first: on PostgreSQL a second decider waits here and
		// then finds the status changed.
		res, err := tx.ExecContext(ctx, "UPDATE applications SET updated_at = $2 WHERE id = $1 AND status = $3", id, now, AppSubmitted)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return invalid("status", "application %d is %s; only a submitted application is decided", cur.Number, cur.Status)
		}
		app = cur
		var changes []AuditChange
		if !d.Approve {
			app.Status, app.DecidedBy, app.DecidedAt, app.DecisionNote = AppDeclined, a.User, fromStamp(now), d.Note
			changes = append(changes, AuditChange{Actor: a.User, Action: AuditActionAppDecide, BusinessID: cur.BusinessID,
				OldValue: AppSubmitted, NewValue: AppDeclined, Reason: fmt.Sprintf("application %d (%s): %s", cur.Number, cur.Company, d.Note)})
		} else {
			if cur.BusinessID == 0 {
				return invalid("business", "match application %d to the service's business before approving it", cur.Number)
			}
			if d.Account == "" {
				d.Account = ApplicationAccount(cur.Number)
			}
			l := LedgerLine{Account: d.Account, Name: cur.Company, BusinessID: cur.BusinessID}
			if err := checkLine(&l); err != nil {
				return err
			}
			spec := RequestSpec{Account: l.Account, Amount: d.Amount, Authority: d.Authority, Policy: d.Policy,
				Reason: fmt.Sprintf("application %d of %s: %s", cur.Number, cur.Company, d.Note)}
			if err := checkRequestSpec(&spec); err != nil {
				return err
			}
			var taken bool
			if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) > 0 FROM team_accounts WHERE service = $1 AND account = $2", a.Service, l.Account).Scan(&taken); err != nil {
				return err
			}
			switch {
			case taken && cur.Account != l.Account:
				return invalid("account", "the team already has an account %s; give the new customer another key", l.Account)
			case !taken:
				if _, err := tx.ExecContext(ctx, accountInsert+"($1, $2, $3, $4, $5, '', '', '', '', $6, $7, $6, $7)",
					newID(), a.Service, l.Account, l.Name, int64(l.BusinessID), now, a.User); err != nil {
					return err
				}
				changes = append(changes, AuditChange{Actor: a.User, Action: AuditActionAccount, Account: l.Account, BusinessID: l.BusinessID,
					NewValue: l.Name, Reason: fmt.Sprintf("created by the approval of application %d", cur.Number)})
			}
			// The request's own entries come after the account's.
			if len(changes) > 0 {
				if _, err := s.appendAuditTx(ctx, tx, a.Service, changes...); err != nil {
					return err
				}
				changes = nil
			}
			if r, err = s.requestLimitTx(ctx, tx, a, spec); err != nil {
				return err
			}
			app.Account, app.RequestID, app.Status = l.Account, r.ID, AppWaiting
			if r.Status == StatusApproved {
				app.Status, app.DecidedBy, app.DecidedAt, app.DecidedAmount, app.DecisionNote = AppApproved, a.User, fromStamp(now), &r.Amount, d.Note
			}
			changes = append(changes, AuditChange{Actor: a.User, Action: AuditActionAppDecide, Account: l.Account, BusinessID: cur.BusinessID,
				OldValue: AppSubmitted, NewValue: app.Status, Reason: fmt.Sprintf("application %d (%s): approve %s as request %d: %s",
					cur.Number, cur.Company, amountText(&d.Amount), r.ID, d.Note)})
		}
		if _, err := tx.ExecContext(ctx, `UPDATE applications SET status = $2, account = $3, request_id = $4, decided_by = $5, decided_at = $6,
			decided_amount = $7, decision_note = $8 WHERE id = $1`, id, app.Status, app.Account, app.RequestID, app.DecidedBy,
			stampOf(app.DecidedAt), nullAmount(app.DecidedAmount), app.DecisionNote); err != nil {
			return err
		}
		if app.Status != AppWaiting {
			if err := s.Emit(ctx, tx, a.Service, EventApplicationDecided, applicationData(app, a.User)); err != nil {
				return err
			}
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, changes...)
		return err
	})
	return app, r, err
}

// settleApplication carries a decided request over to the application
// waiting on it, inside the decision's transaction: approved or declined
// with the decider and note; withdrawn puts it back to submitted.
func (s *Store) settleApplication(ctx context.Context, tx *sql.Tx, service string, r LimitRequest) ([]AuditChange, error) {
	status := map[string]string{StatusApproved: AppApproved, StatusDeclined: AppDeclined, StatusWithdrawn: AppSubmitted}[r.Status]
	if status == "" {
		return nil, nil
	}
	var id, number int64
	err := tx.QueryRowContext(ctx, "SELECT id, number FROM applications WHERE service = $1 AND request_id = $2 AND status = $3",
		service, r.ID, AppWaiting).Scan(&id, &number)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var amount any
	decidedAt, requestID := stampOf(r.DecidedAt), r.ID
	if status == AppApproved {
		amount = r.Amount
		if r.Approved != nil {
			amount = *r.Approved // a manager may approve less than asked
		}
	}
	if status == AppSubmitted {
		decidedAt, requestID = 0, 0
	}
	if _, err := tx.ExecContext(ctx, `UPDATE applications SET status = $3, request_id = $4, decided_by = $5, decided_at = $6, decided_amount = $7,
		decision_note = $8 WHERE service = $1 AND request_id = $2`, service, r.ID, status, requestID, r.DecidedBy, decidedAt, amount, r.Note); err != nil {
		return nil, err
	}
	if status != AppSubmitted {
		app, err := readApplication(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		if err := s.Emit(ctx, tx, service, EventApplicationDecided, applicationData(app, r.DecidedBy)); err != nil {
			return nil, err
		}
	}
	return []AuditChange{{Actor: r.DecidedBy, Action: AuditActionAppDecide, Account: r.Account, BusinessID: r.BusinessID, OldValue: AppWaiting,
		NewValue: status, Reason: fmt.Sprintf("application %d: request %d %s", number, r.ID, r.Status)}}, nil
}

// ApplicationsToTell lists decided applications whose applicant has not
// been told the outcome yet, oldest first, at most limit.
func (s *Store) ApplicationsToTell(ctx context.Context, limit int) ([]Application, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	rows, err := s.r.QueryContext(ctx, "SELECT "+appColumns+" FROM applications WHERE status IN ($1, $2) AND notified_at = 0 ORDER BY decided_at LIMIT $3",
		AppApproved, AppDeclined, limit)
	if err != nil {
		return nil, wrap("applications to tell", err)
	}
	defer rows.Close()
	var out []Application
	for rows.Next() {
		app, err := scanApplication(rows)
		if err != nil {
			return nil, wrap("applications to tell", err)
		}
		out = append(out, app)
	}
	return out, wrap("applications to tell", rows.Err())
}

// ApplicationByID reads an application for the job queue (no team
// check: jobs carry only ids the store gave).
func (s *Store) ApplicationByID(ctx context.Context, id int64) (Application, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	app, err := readApplication(ctx, s.r, id)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return app, wrap("application", err)
	}
	return app, err
}

// ApplicationForRequest is the application a limit request decides, if
// any (ErrNotFound otherwise).
func (s *Store) ApplicationForRequest(ctx context.Context, a Analyst, request int64) (Application, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Application{}, err
	}
	var id int64
	err = s.r.QueryRowContext(ctx, "SELECT id FROM applications WHERE service = $1 AND request_id = $2", a.Service, request).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return Application{}, ErrNotFound
	}
	if err != nil {
		return Application{}, wrap("application", err)
	}
	return readApplication(ctx, s.r, id)
}

// ToldApplicant records that the applicant was sent the outcome, with
// an audit entry.
func (s *Store) ToldApplicant(ctx context.Context, id int64) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	app, err := readApplication(ctx, s.r, id)
	if err != nil {
		return wrap("told applicant", err)
	}
	return s.teamWriteOf(ctx, app.Service, "told applicant", touchNone(), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE applications SET notified_at = $2 WHERE id = $1 AND notified_at = 0", id, s.stamp())
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		_, err = s.appendAuditTx(ctx, tx, app.Service, AuditChange{Actor: AuditActorApplicant, Action: AuditActionAppDecide,
			Account: app.Account, BusinessID: app.BusinessID, NewValue: "outcome e-mailed",
			Reason: fmt.Sprintf("application %d: the applicant was e-mailed that it is %s", app.Number, app.Status)})
		return err
	})
}

// LinkReference reads the reference a link names with its application:
// ErrNotFound unless id and nonce match.
func (s *Store) LinkReference(ctx context.Context, id int64, nonce string) (Reference, Application, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	r, err := scanReference(s.r.QueryRowContext(ctx, "SELECT "+refColumns+" FROM application_references WHERE id = $1", id))
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !sameNonce(r.Nonce, nonce)) {
		return Reference{}, Application{}, ErrNotFound
	}
	if err != nil {
		return r, Application{}, wrap("reference", err)
	}
	app, err := readApplication(ctx, s.r, r.Application)
	return r, app, wrap("reference", err)
}

// ReferenceByID reads a reference for the job queue.
func (s *Store) ReferenceByID(ctx context.Context, id int64) (Reference, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	r, err := scanReference(s.r.QueryRowContext(ctx, "SELECT "+refColumns+" FROM application_references WHERE id = $1", id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, ErrNotFound
	}
	return r, wrap("reference", err)
}

// ErrReferenceClosed: the reference answered already or its link expired.
var ErrReferenceClosed = errors.New("store: this reference link was used or has expired")

// AnswerReference keeps a reference's answer, once, before its link
// expires; audited.
func (s *Store) AnswerReference(ctx context.Context, id int64, nonce, answer, from string) (Reference, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if len(answer) > 8<<10 || !cleanText(answer) {
		return Reference{}, invalid("answer", "the answer is longer than the form allows")
	}
	r, app, err := s.LinkReference(ctx, id, nonce)
	if err != nil {
		return r, err
	}
	err = s.teamWriteOf(ctx, app.Service, "answer reference", touchNone(), func(tx *sql.Tx) error {
		now := s.stamp()
		res, err := tx.ExecContext(ctx, "UPDATE application_references SET answer = $2, answered_at = $3, answered_from = $4 WHERE id = $1 AND answered_at = 0 AND expires_at > $3",
			id, answer, now, from)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrReferenceClosed
		}
		r.Answer, r.AnsweredAt, r.AnsweredFrom = answer, fromStamp(now), from
		_, err = s.appendAuditTx(ctx, tx, app.Service, AuditChange{Actor: AuditActorApplicant, Action: AuditActionAppRef, BusinessID: app.BusinessID,
			NewValue: "answered", Reason: fmt.Sprintf("application %d: %s reference %s answered from %s", app.Number, r.Kind, r.Name, from)})
		return err
	})
	return r, err
}

// NoteReminder claims reminder n of the reference: true when it is due
// (not answered, not expired, reminder n-1 the last one sent), so of two
// jobs at once one sends it.
func (s *Store) NoteReminder(ctx context.Context, id int64, n int) (Reference, bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	res, err := s.w.ExecContext(ctx, "UPDATE application_references SET reminders = $2 WHERE id = $1 AND reminders = $3 AND answered_at = 0 AND expires_at > $4",
		id, n, n-1, s.stamp())
	if err != nil {
		return Reference{}, false, wrap("reminder", err)
	}
	r, err := scanReference(s.r.QueryRowContext(ctx, "SELECT "+refColumns+" FROM application_references WHERE id = $1", id))
	if err != nil {
		return r, false, wrap("reminder", err)
	}
	done, _ := res.RowsAffected()
	return r, done == 1, nil
}

// Expired tells whether the reference's link has expired at now.
func (r Reference) Expired(now time.Time) bool { return !now.Before(r.ExpiresAt) }
