package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Credit applications (issue 44): a stranger's answers arrive through a
// signed link (internal/apply); the team invites, matches and decides here.
// The store keeps the bounds only it can count: open applications per
// team, drafts made from the team's public link, saves per link, the
// answers' size, documents per application and their bytes per team.

// Bounds of applications.
const (
	// MaxOpenApplications is how many invited or draft applications a team
	// keeps at once.
	MaxOpenApplications = 1000
	// MaxPublicDrafts is how many drafts the team's public link holds at
	// once (not yet submitted).
	MaxPublicDrafts = 100
	// MaxApplicationSaves is how often one link saves its draft.
	MaxApplicationSaves = 200
	// MaxAnswersBytes bounds the answers kept (a JSON document).
	MaxAnswersBytes = 64 << 10
	// MaxApplicationList is how many applications the inbox lists.
	MaxApplicationList = 500
)

// Application statuses.
const (
	AppInvited   = "invited"
	AppDraft     = "draft"
	AppSubmitted = "submitted"
	AppWaiting   = "waiting"
	AppApproved  = "approved"
	AppDeclined  = "declined"
	AppRevoked   = "revoked"
)

// Application sources.
const (
	SourceInvitation = "invitation"
	SourcePublic     = "public"
)

// The actions applications are logged under.
const (
	AuditActionAppInvite = "application-invite"
	AuditActionAppSubmit = "application-submit"
	AuditActionAppRevoke = "application-revoke"
	AuditActionAppMatch  = "application-match"
	AuditActionAppReport = "application-report"
	AuditActionAppDecide = "application-decide"
	AuditActionAppLink   = "application-link"
	AuditActionAppRef    = "application-reference"
	// AuditActorApplicant is the actor of what an applicant or a reference
	// does through a link.
	AuditActorApplicant = "applicant"
)

// ErrApplicationsFull: a bound of the team's applications is reached.
var ErrApplicationsFull = errors.New("store: the team has as many open applications as it keeps; decide or revoke some first")

// ErrApplicationClosed: the application no longer takes answers (it was
// submitted, revoked or decided, or its link expired).
var ErrApplicationClosed = errors.New("store: this application no longer takes changes")

// Application is a credit application as kept.
type Application struct {
	ID, Number     int64
	Service        string
	Source, Nonce  string
	Company, Email string
	Requested      *float64
	Status         string
	// Answers are the applicant's answers as a JSON document
	// (internal/applications reads it).
	Answers                         string
	Saves                           int
	CreatedBy                       string
	CreatedAt, ExpiresAt, UpdatedAt time.Time
	SubmittedAt                     time.Time
	SubmittedFrom, SignedSHA256     string
	BusinessID                      int32
	MatchedBy                       string
	ReportAt                        time.Time
	ReportBy                        string
	RequestID                       int64
	Account, DecidedBy              string
	DecidedAt                       time.Time
	DecidedAmount                   *float64
	DecisionNote                    string
	NotifiedAt                      time.Time
	Documents                       []Document
	References                      []Reference
}

// Open tells whether the applicant may still change the application at
// now.
func (a Application) Open(now time.Time) bool {
	return (a.Status == AppInvited || a.Status == AppDraft) && now.Before(a.ExpiresAt)
}

// Invitation is an application as the team asks for it.
type Invitation struct {
	Company, Email string
	Requested      *float64
	// Life is how long the link works.
	Life time.Duration
}

// newNonce is a link's random part.
func newNonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// checkField refuses a missing (when required) or overlong line of text.
func checkField(field, s string, required bool, max int) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "" && required:
		return "", invalid(field, "required")
	case utf8.RuneCountInString(s) > max:
		return "", invalid(field, "longer than %d characters", max)
	case !cleanText(s) || strings.ContainsAny(s, "\r\n"):
		return "", invalid(field, "not one line of text")
	}
	return s, nil
}

// Invite records an invitation of the team and returns it with its
// number; ErrApplicationsFull past MaxOpenApplications.
func (s *Store) Invite(ctx context.Context, a Analyst, inv Invitation) (Application, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Application{}, err
	}
	if inv.Company, err = checkField("company", inv.Company, true, 200); err != nil {
		return Application{}, err
	}
	if inv.Email, err = checkField("email", inv.Email, true, 254); err != nil {
		return Application{}, err
	}
	if inv.Requested != nil {
		if err := CheckAmount(*inv.Requested, false); err != nil {
			return Application{}, invalid("requested", "%s", err.Error())
		}
	}
	return s.newApplication(ctx, a, SourceInvitation, inv)
}

// StartPublicApplication makes a new application from the team's public
// link; ErrApplicationsFull past MaxPublicDrafts drafts of the link, or
// ErrNotFound when the link is off or its nonce is not the team's.
func (s *Store) StartPublicApplication(ctx context.Context, service, nonce string, life time.Duration) (Application, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	on, err := s.publicLinkIs(ctx, service, nonce)
	if err != nil {
		return Application{}, err
	}
	if !on {
		return Application{}, ErrNotFound
	}
	return s.newApplication(ctx, Analyst{Service: service, User: AuditActorApplicant}, SourcePublic, Invitation{Life: life})
}

// newApplication inserts an application within the team's bounds.
func (s *Store) newApplication(ctx context.Context, a Analyst, source string, inv Invitation) (Application, error) {
	if inv.Life <= 0 {
		inv.Life = 30 * 24 * time.Hour
	}
	app := Application{ID: newID(), Service: a.Service, Source: source, Nonce: newNonce(), Company: inv.Company, Email: inv.Email,
		Requested: inv.Requested, Status: AppInvited, Answers: "{}", CreatedBy: a.User}
	err := s.teamWriteOf(ctx, a.Service, "invite", touchNone(), func(tx *sql.Tx) error {
		var open, public int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN source = $3 THEN 1 ELSE 0 END), 0)
			FROM applications WHERE service = $1 AND status IN ($2, $4)`, a.Service, AppInvited, SourcePublic, AppDraft).Scan(&open, &public); err != nil {
			return err
		}
		if open >= MaxOpenApplications || (source == SourcePublic && public >= MaxPublicDrafts) {
			return ErrApplicationsFull
		}
		if err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(number), 0) + 1 FROM applications WHERE service = $1", a.Service).Scan(&app.Number); err != nil {
			return err
		}
		now := s.stamp()
		app.CreatedAt, app.UpdatedAt = fromStamp(now), fromStamp(now)
		app.ExpiresAt = fromStamp(now + inv.Life.Microseconds())
		if _, err := tx.ExecContext(ctx, `INSERT INTO applications (id, service, number, source, nonce, company, email, requested, status,
			answers, saves, created_by, created_at, expires_at, updated_at, submitted_at, submitted_from, signed_sha256, business_id,
			matched_by, report_at, report_by, request_id, account, decided_by, decided_at, decided_amount, decision_note, notified_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11, $12, $13, $12, 0, '', '', 0, '', 0, '', 0, '', '', 0, NULL, '', 0)`,
			app.ID, a.Service, app.Number, source, app.Nonce, app.Company, app.Email, nullAmount(app.Requested), AppInvited, app.Answers,
			a.User, now, stampOf(app.ExpiresAt)); err != nil {
			return err
		}
		if source == SourcePublic {
			return nil // a stranger's visit is no change of the team's until submitted
		}
		_, err := s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionAppInvite,
			NewValue: fmt.Sprintf("application %d: %s", app.Number, app.Company),
			Reason:   fmt.Sprintf("invited %s, link until %s", app.Email, app.ExpiresAt.Format(DateLayout))})
		return err
	})
	if err != nil {
		return Application{}, err
	}
	return app, nil
}

// appColumns are what scanApplication reads, in its order.
const appColumns = `id, service, number, source, nonce, company, email, requested, status, answers, saves, created_by, created_at,
	expires_at, updated_at, submitted_at, submitted_from, signed_sha256, business_id, matched_by, report_at, report_by, request_id,
	account, decided_by, decided_at, decided_amount, decision_note, notified_at`

func scanApplication(row rowScanner) (Application, error) {
	var a Application
	var req, amt sql.NullFloat64
	var created, expires, updated, submitted, business, report, decided, notified int64
	err := row.Scan(&a.ID, &a.Service, &a.Number, &a.Source, &a.Nonce, &a.Company, &a.Email, &req, &a.Status, &a.Answers, &a.Saves,
		&a.CreatedBy, &created, &expires, &updated, &submitted, &a.SubmittedFrom, &a.SignedSHA256, &business, &a.MatchedBy, &report,
		&a.ReportBy, &a.RequestID, &a.Account, &a.DecidedBy, &decided, &amt, &a.DecisionNote, &notified)
	if err != nil {
		return a, err
	}
	if req.Valid {
		a.Requested = &req.Float64
	}
	if amt.Valid {
		a.DecidedAmount = &amt.Float64
	}
	a.BusinessID = int32(business)
	a.CreatedAt, a.ExpiresAt, a.UpdatedAt = fromStamp(created), fromStamp(expires), fromStamp(updated)
	for _, t := range []struct {
		at  *time.Time
		raw int64
	}{{&a.SubmittedAt, submitted}, {&a.ReportAt, report}, {&a.DecidedAt, decided}, {&a.NotifiedAt, notified}} {
		if t.raw != 0 {
			*t.at = fromStamp(t.raw)
		}
	}
	return a, nil
}

// queryRower is what reads one row: a pool, the read pool or a transaction.
type queryRower interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

// readApplication reads one application by id with its documents and
// references (no file data); ErrNotFound for none.
func readApplication(ctx context.Context, q queryRower, id int64) (Application, error) {
	app, err := scanApplication(q.QueryRowContext(ctx, "SELECT "+appColumns+" FROM applications WHERE id = $1", id))
	if errors.Is(err, sql.ErrNoRows) {
		return app, ErrNotFound
	}
	if err != nil {
		return app, err
	}
	if app.Documents, err = readDocuments(ctx, q, id); err != nil {
		return app, err
	}
	app.References, err = readReferences(ctx, q, id)
	return app, err
}

// LinkApplication reads the application a link names: ErrNotFound unless
// both its id and its nonce match, so a link cannot be guessed from
// another.
func (s *Store) LinkApplication(ctx context.Context, id int64, nonce string) (Application, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	app, err := readApplication(ctx, s.r, id)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return app, err
		}
		return app, wrap("application", err)
	}
	if !sameNonce(app.Nonce, nonce) {
		return Application{}, ErrNotFound
	}
	return app, nil
}

// sameNonce compares a stored nonce with a link's in constant time.
func sameNonce(stored, given string) bool {
	if len(stored) != len(given) || stored == "" {
		return false
	}
	var d byte
	for i := 0; i < len(stored); i++ {
		d |= stored[i] ^ given[i]
	}
	return d == 0
}

// SaveAnswers keeps the applicant's draft answers: only while the
// application is open (ErrApplicationClosed), within MaxAnswersBytes and
// MaxApplicationSaves.
func (s *Store) SaveAnswers(ctx context.Context, id int64, nonce, answers string) (Application, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if len(answers) > MaxAnswersBytes || !cleanText(answers) {
		return Application{}, invalid("answers", "the answers are longer than the form allows")
	}
	var app Application
	err := s.applicantWrite(ctx, id, nonce, "save application", func(tx *sql.Tx, cur Application) error {
		if cur.Saves >= MaxApplicationSaves {
			return invalid("answers", "this application was saved %d times, as often as a link may", MaxApplicationSaves)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE applications SET answers = $2, saves = saves + 1, status = $3, updated_at = $4 WHERE id = $1",
			id, answers, AppDraft, s.stamp()); err != nil {
			return err
		}
		var err error
		app, err = readApplication(ctx, tx, id)
		return err
	})
	return app, err
}

// applicantWrite runs fn on the open application the link names, in one
// transaction on the writer (no team version: nothing of the team's
// figures changes while an applicant types).
func (s *Store) applicantWrite(ctx context.Context, id int64, nonce, op string, fn func(tx *sql.Tx, cur Application) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap(op, err)
	}
	defer tx.Rollback()
	cur, err := scanApplication(tx.QueryRowContext(ctx, "SELECT "+appColumns+" FROM applications WHERE id = $1", id))
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !sameNonce(cur.Nonce, nonce)) {
		return ErrNotFound
	}
	if err != nil {
		return wrap(op, err)
	}
	if !cur.Open(s.now()) {
		return ErrApplicationClosed
	}
	if err := fn(tx, cur); err != nil {
		if isStoreError(err) || errors.Is(err, ErrApplicationClosed) || errors.Is(err, ErrApplicationsFull) {
			return err
		}
		return wrap(op, err)
	}
	return wrap(op, tx.Commit())
}

// Applications lists the team's applications, newest first, at most
// MaxApplicationList (without documents or references).
func (s *Store) Applications(ctx context.Context, a Analyst) ([]Application, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT "+appColumns+" FROM applications WHERE service = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
		a.Service, MaxApplicationList)
	if err != nil {
		return nil, wrap("applications", err)
	}
	defer rows.Close()
	var out []Application
	for rows.Next() {
		app, err := scanApplication(rows)
		if err != nil {
			return nil, wrap("applications", err)
		}
		app.Answers = "" // the list shows the answers' company only
		out = append(out, app)
	}
	return out, wrap("applications", rows.Err())
}

// TeamApplication reads one of the team's applications with its documents
// and references; ErrNotFound for another team's.
func (s *Store) TeamApplication(ctx context.Context, a Analyst, id int64) (Application, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Application{}, err
	}
	app, err := readApplication(ctx, s.r, id)
	if err == nil && app.Service != a.Service {
		err = ErrNotFound
	}
	if err != nil && !errors.Is(err, ErrNotFound) {
		return app, wrap("application", err)
	}
	return app, err
}

// RevokeApplication ends an invited or draft application's link, audited.
func (s *Store) RevokeApplication(ctx context.Context, a Analyst, id int64, reason string) (Application, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Application{}, err
	}
	if reason, err = checkReason("reason", reason); err != nil {
		return Application{}, err
	}
	var app Application
	err = s.teamWriteOf(ctx, a.Service, "revoke application", touchNone(), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE applications SET status = $3, updated_at = $4 WHERE service = $1 AND id = $2 AND status IN ($5, $6)",
			a.Service, id, AppRevoked, s.stamp(), AppInvited, AppDraft)
		if err != nil {
			return err
		}
		if app, err = readApplication(ctx, tx, id); err != nil {
			return err
		}
		if app.Service != a.Service {
			return ErrNotFound
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return invalid("status", "application %d is %s; only an invited or draft application's link is revoked", app.Number, app.Status)
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionAppRevoke,
			OldValue: "link of application " + fmt.Sprint(app.Number), NewValue: AppRevoked, Reason: reason})
		return err
	})
	return app, err
}
