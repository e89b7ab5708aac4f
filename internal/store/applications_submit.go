package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Documents and references of an application, its submission and the
// team's public link.

// Bounds of documents.
const (
	// MaxDocuments is how many files one application keeps.
	MaxDocuments = 3
	// MaxDocumentBytes bounds one file.
	MaxDocumentBytes = 10 << 20
	// MaxTeamDocumentBytes bounds the files of a team's undecided
	// applications together.
	MaxTeamDocumentBytes = 512 << 20
	// MaxReferences is how many references one application names (three
	// trade, one bank).
	MaxReferences = 4
)

// Document is a file an applicant sent; Data only when read on its own.
type Document struct {
	N           int
	Name, Type  string
	Size        int64
	SHA256      string
	Added       time.Time
	Data        []byte
	Application int64
}

// ReferenceSpec is a reference as the applicant names it.
type ReferenceSpec struct {
	Kind, Name, Contact, Email string
}

// Reference is a trade or bank reference of a submitted application.
type Reference struct {
	ID                          int64
	Application                 int64
	Kind                        string
	Position                    int
	Name, Contact, Email, Nonce string
	AskedAt, ExpiresAt          time.Time
	Reminders                   int
	AnsweredAt                  time.Time
	// Answer is the reference's answers as a JSON document.
	Answer, AnsweredFrom string
}

// Answered tells whether the reference answered.
func (r Reference) Answered() bool { return !r.AnsweredAt.IsZero() }

// Submission is an application as the applicant signs and sends it.
type Submission struct {
	Answers string
	// Company and Email are the legal name and the contact's address the
	// answers give: the inbox's name and where the outcome goes.
	Company, Email string
	// From is the address the signature came from; SignedSHA256 the hash of
	// what was signed, kept in the audit trail; Signer who signed it.
	From, SignedSHA256, Signer string
	References                 []ReferenceSpec
	// ReferenceLife is how long each reference's link works.
	ReferenceLife time.Duration
}

func readDocuments(ctx context.Context, q queryRower, id int64) ([]Document, error) {
	rows, err := q.QueryContext(ctx, "SELECT n, name, content_type, size, sha256, added_at FROM application_documents WHERE application_id = $1 ORDER BY n", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Document
	for rows.Next() {
		d := Document{Application: id}
		var at int64
		if err := rows.Scan(&d.N, &d.Name, &d.Type, &d.Size, &d.SHA256, &at); err != nil {
			return nil, err
		}
		d.Added = fromStamp(at)
		out = append(out, d)
	}
	return out, rows.Err()
}

const refColumns = `id, application_id, kind, position, name, contact, email, nonce, asked_at, expires_at, reminders, answered_at, answer, answered_from`

func scanReference(row rowScanner) (Reference, error) {
	var r Reference
	var asked, expires, answered int64
	err := row.Scan(&r.ID, &r.Application, &r.Kind, &r.Position, &r.Name, &r.Contact, &r.Email, &r.Nonce, &asked, &expires,
		&r.Reminders, &answered, &r.Answer, &r.AnsweredFrom)
	r.AskedAt, r.ExpiresAt = fromStamp(asked), fromStamp(expires)
	if answered != 0 {
		r.AnsweredAt = fromStamp(answered)
	}
	return r, err
}

func readReferences(ctx context.Context, q queryRower, id int64) ([]Reference, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+refColumns+" FROM application_references WHERE application_id = $1 ORDER BY position", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Reference
	for rows.Next() {
		r, err := scanReference(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// AddDocument keeps a file with the open application the link names:
// at most MaxDocuments each, MaxDocumentBytes a file and
// MaxTeamDocumentBytes for the team's undecided applications together.
// The caller has checked its type by content.
func (s *Store) AddDocument(ctx context.Context, id int64, nonce string, d Document) (Document, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if len(d.Data) == 0 || len(d.Data) > MaxDocumentBytes {
		return Document{}, invalid("document", "a document is from 1 byte to 10 MB")
	}
	var err error
	if d.Name, err = checkField("document", d.Name, true, 200); err != nil {
		return Document{}, err
	}
	d.Size = int64(len(d.Data))
	err = s.applicantWrite(ctx, id, nonce, "add document", func(tx *sql.Tx, cur Application) error {
		var n, next int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*), COALESCE(MAX(n), 0) + 1 FROM application_documents WHERE application_id = $1", id).Scan(&n, &next); err != nil {
			return err
		}
		if n >= MaxDocuments {
			return invalid("document", "an application keeps at most %d documents; remove one first", MaxDocuments)
		}
		var teamBytes int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(d.size), 0) FROM application_documents d JOIN applications a ON a.id = d.application_id
			WHERE a.service = $1 AND a.status IN ($2, $3, $4, $5)`, cur.Service, AppInvited, AppDraft, AppSubmitted, AppWaiting).Scan(&teamBytes); err != nil {
			return err
		}
		if teamBytes+d.Size > MaxTeamDocumentBytes {
			return ErrApplicationsFull
		}
		d.N, d.Added, d.Application = next, fromStamp(s.stamp()), id
		_, err := tx.ExecContext(ctx, `INSERT INTO application_documents (application_id, n, name, content_type, size, sha256, data, added_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, id, d.N, d.Name, d.Type, d.Size, d.SHA256, d.Data, stampOf(d.Added))
		return err
	})
	d.Data = nil
	return d, err
}

// RemoveDocument takes a file off the open application the link names.
func (s *Store) RemoveDocument(ctx context.Context, id int64, nonce string, n int) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.applicantWrite(ctx, id, nonce, "remove document", func(tx *sql.Tx, _ Application) error {
		_, err := tx.ExecContext(ctx, "DELETE FROM application_documents WHERE application_id = $1 AND n = $2", id, n)
		return err
	})
}

// ApplicationDocument reads one file of the team's application, with its
// data; ErrNotFound for another team's.
func (s *Store) ApplicationDocument(ctx context.Context, a Analyst, id int64, n int) (Document, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Document{}, err
	}
	d := Document{Application: id, N: n}
	var at int64
	err = s.r.QueryRowContext(ctx, `SELECT d.name, d.content_type, d.size, d.sha256, d.data, d.added_at FROM application_documents d
		JOIN applications a ON a.id = d.application_id WHERE a.service = $1 AND a.id = $2 AND d.n = $3`, a.Service, id, n).
		Scan(&d.Name, &d.Type, &d.Size, &d.SHA256, &d.Data, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return d, ErrNotFound
	}
	d.Added = fromStamp(at)
	return d, wrap("application document", err)
}

// SubmitApplication signs and submits the open application the link
// names, with its references (each given a one-time link), in one
// transaction with its audit entry, which keeps the SHA-256 of what was
// signed. The application cannot change afterwards.
func (s *Store) SubmitApplication(ctx context.Context, id int64, nonce string, sub Submission) (Application, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if len(sub.Answers) > MaxAnswersBytes || !cleanText(sub.Answers) {
		return Application{}, invalid("answers", "the answers are longer than the form allows")
	}
	if len(sub.References) > MaxReferences {
		return Application{}, invalid("references", "at most %d references", MaxReferences)
	}
	var err error
	if sub.Company, err = checkField("company", sub.Company, true, 200); err != nil {
		return Application{}, err
	}
	if sub.Email, err = checkField("email", sub.Email, true, 254); err != nil {
		return Application{}, err
	}
	if sub.ReferenceLife <= 0 {
		sub.ReferenceLife = 14 * 24 * time.Hour
	}
	var app Application
	err = s.applicantWrite(ctx, id, nonce, "submit application", func(tx *sql.Tx, cur Application) error {
		now := s.stamp()
		if _, err := tx.ExecContext(ctx, `UPDATE applications SET answers = $2, status = $3, updated_at = $4, submitted_at = $4,
			submitted_from = $5, signed_sha256 = $6, company = $7, email = $8 WHERE id = $1`,
			id, sub.Answers, AppSubmitted, now, sub.From, sub.SignedSHA256, sub.Company, sub.Email); err != nil {
			return err
		}
		for i, r := range sub.References {
			if _, err := tx.ExecContext(ctx, `INSERT INTO application_references (id, application_id, service, kind, position, name, contact,
				email, nonce, asked_at, expires_at, reminders, answered_at, answer, answered_from)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, 0, '', '')`,
				newID(), id, cur.Service, r.Kind, i+1, r.Name, r.Contact, r.Email, newNonce(), now, now+sub.ReferenceLife.Microseconds()); err != nil {
				return err
			}
		}
		var err error
		if app, err = readApplication(ctx, tx, id); err != nil {
			return err
		}
		if err := s.Emit(ctx, tx, cur.Service, EventApplicationSubmitted, applicationData(app, AuditActorApplicant)); err != nil {
			return err
		}
		_, err = s.appendAuditTx(ctx, tx, cur.Service, AuditChange{Actor: AuditActorApplicant, Action: AuditActionAppSubmit,
			NewValue: fmt.Sprintf("application %d: %s", app.Number, sub.Company),
			Reason:   fmt.Sprintf("signed by %s from %s; SHA-256 of what was signed %s", sub.Signer, sub.From, sub.SignedSHA256)})
		return err
	})
	return app, err
}

// ApplicationLink is the team's public link: its nonce and whether it is
// on ("" and false before it was ever switched on).
func (s *Store) ApplicationLink(ctx context.Context, a Analyst) (string, bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return "", false, err
	}
	var nonce string
	var on int64
	err = s.r.QueryRowContext(ctx, "SELECT nonce, enabled FROM application_links WHERE service = $1", a.Service).Scan(&nonce, &on)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return nonce, on == 1, wrap("application link", err)
}

// SetApplicationLink switches the team's public link on (with a new
// nonce, so a link switched off never works again) or off, audited.
func (s *Store) SetApplicationLink(ctx context.Context, a Analyst, on bool) (string, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return "", err
	}
	nonce, enabled, state := newNonce(), int64(0), "off"
	if on {
		enabled, state = 1, "on"
	}
	err = s.teamWriteOf(ctx, a.Service, "application link", touchNone(), func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO application_links (service, nonce, enabled, changed_by, changed_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (service) DO UPDATE SET nonce = excluded.nonce, enabled = excluded.enabled, changed_by = excluded.changed_by,
			changed_at = excluded.changed_at`, a.Service, nonce, enabled, a.User, s.stamp()); err != nil {
			return err
		}
		_, err := s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionAppLink, NewValue: state,
			Reason: "the team's public application link switched " + state})
		return err
	})
	return nonce, err
}

// PublicLinkOn tells whether nonce is the team's public link, switched on.
func (s *Store) PublicLinkOn(ctx context.Context, service, nonce string) (bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.publicLinkIs(ctx, service, nonce)
}

// publicLinkIs tells whether nonce is the team's public link, switched on.
func (s *Store) publicLinkIs(ctx context.Context, service, nonce string) (bool, error) {
	var stored string
	var on int64
	err := s.r.QueryRowContext(ctx, "SELECT nonce, enabled FROM application_links WHERE service = $1", service).Scan(&stored, &on)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, wrap("application link", err)
	}
	return on == 1 && sameNonce(stored, nonce), nil
}
