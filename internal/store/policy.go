package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The team's credit policy as versioned data (issue 45): a manager saves
// a version (the policy as JSON, which internal/policy reads and checks
// before it comes here), another manager puts it in force. Versions and
// activations are kept, never changed, each audited.

// Audit actions of the credit policy.
const (
	AuditActionPolicyVersion  = "policy-version"
	AuditActionPolicyActivate = "policy-activate"
)

// Bounds of the policy's versions.
const (
	// MaxPolicyBytes bounds one version's body.
	MaxPolicyBytes = 64 << 10
	// MaxPolicyVersions bounds the versions a team keeps.
	MaxPolicyVersions = 500
)

// ErrFourEyes refuses a manager putting in force the version they saved.
var ErrFourEyes = &ValidationError{Field: "activate", Message: "a version is put in force by a manager other than the one who saved it (four eyes)"}

// PolicyVersion is one saved version of the team's policy.
type PolicyVersion struct {
	ID      int64
	Version int
	// Body is the policy as JSON (internal/policy).
	Body      []byte
	Note      string
	CreatedBy string
	CreatedAt time.Time
	// ActivatedBy and ActivatedAt are its latest activation ("" never).
	ActivatedBy string
	ActivatedAt time.Time
	// Active says it is the version in force.
	Active bool
}

// SavePolicy keeps a new version, numbered after the team's last, and
// audits it; the body is the caller's checked policy.
func (s *Store) SavePolicy(ctx context.Context, a Analyst, body []byte, note string) (PolicyVersion, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return PolicyVersion{}, err
	}
	note = strings.TrimSpace(note)
	switch {
	case len(body) == 0 || len(body) > MaxPolicyBytes || !cleanText(string(body)):
		return PolicyVersion{}, invalid("policy", "a policy is text of at most %s bytes", grouped(MaxPolicyBytes))
	case note == "" || utf8.RuneCountInString(note) > MaxRequestReasonLen || !cleanText(note):
		return PolicyVersion{}, invalid("note", "a version needs a note of at most %s characters: what changed and why", grouped(MaxRequestReasonLen))
	}
	v := PolicyVersion{ID: newID(), Body: body, Note: note, CreatedBy: a.User}
	err = s.teamWriteOf(ctx, a.Service, "save policy", touchNone(), func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*), COALESCE(MAX(version), 0) FROM policy_versions WHERE service = $1", a.Service).Scan(&n, &v.Version); err != nil {
			return err
		}
		if n >= MaxPolicyVersions {
			return invalid("policy", "the team keeps at most %d versions", MaxPolicyVersions)
		}
		v.Version++
		now := s.stamp()
		v.CreatedAt = fromStamp(now)
		if _, err := tx.ExecContext(ctx, `INSERT INTO policy_versions (id, service, version, body, note, created_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, v.ID, a.Service, v.Version, string(body), note, a.User, now); err != nil {
			return err
		}
		_, err := s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionPolicyVersion,
			NewValue: "version " + strconv.Itoa(v.Version), Reason: note})
		return err
	})
	return v, err
}

// ActivatePolicy puts version id in force, by a manager other than the
// one who saved it (ErrFourEyes); audited with the version it replaces.
// ErrNotFound for another team's or no version.
func (s *Store) ActivatePolicy(ctx context.Context, a Analyst, id int64) (PolicyVersion, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return PolicyVersion{}, err
	}
	var v PolicyVersion
	err = s.teamWriteOf(ctx, a.Service, "activate policy", touchNone(), func(tx *sql.Tx) error {
		var body string
		var at int64
		err := tx.QueryRowContext(ctx, "SELECT version, body, note, created_by, created_at FROM policy_versions WHERE service = $1 AND id = $2",
			a.Service, id).Scan(&v.Version, &body, &v.Note, &v.CreatedBy, &at)
		if err == sql.ErrNoRows {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		v.ID, v.Body, v.CreatedAt = id, []byte(body), fromStamp(at)
		if v.CreatedBy == a.User {
			return ErrFourEyes
		}
		old := "none"
		var was int
		err = tx.QueryRowContext(ctx, `SELECT v.version FROM policy_activations p JOIN policy_versions v ON v.id = p.version_id
			WHERE p.service = $1 ORDER BY p.activated_at DESC, p.id DESC LIMIT 1`, a.Service).Scan(&was)
		switch {
		case err == nil:
			old = "version " + strconv.Itoa(was)
		case err != sql.ErrNoRows:
			return err
		}
		now := s.stamp()
		if _, err := tx.ExecContext(ctx, "INSERT INTO policy_activations (id, service, version_id, activated_by, activated_at) VALUES ($1, $2, $3, $4, $5)",
			newID(), a.Service, id, a.User, now); err != nil {
			return err
		}
		v.ActivatedBy, v.ActivatedAt, v.Active = a.User, fromStamp(now), true
		_, err = s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionPolicyActivate,
			OldValue: old, NewValue: "version " + strconv.Itoa(v.Version), Reason: "saved by " + v.CreatedBy + ": " + v.Note})
		return err
	})
	return v, err
}

// Policies are the team's versions, newest first, each with its latest
// activation and the one in force marked.
func (s *Store) Policies(ctx context.Context, a Analyst) ([]PolicyVersion, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT v.id, v.version, v.body, v.note, v.created_by, v.created_at, p.activated_by, p.activated_at
		FROM policy_versions v LEFT JOIN policy_activations p ON p.version_id = v.id WHERE v.service = $1
		ORDER BY v.version DESC, p.activated_at`, a.Service)
	if err != nil {
		return nil, wrap("policies", err)
	}
	defer rows.Close()
	var out []PolicyVersion
	var newest int64
	active := int64(-1)
	for rows.Next() {
		var v PolicyVersion
		var body string
		var at int64
		var by sql.NullString
		var act sql.NullInt64
		if err := rows.Scan(&v.ID, &v.Version, &body, &v.Note, &v.CreatedBy, &at, &by, &act); err != nil {
			return nil, wrap("policies", err)
		}
		v.Body, v.CreatedAt = []byte(body), fromStamp(at)
		if act.Valid {
			v.ActivatedBy, v.ActivatedAt = by.String, fromStamp(act.Int64)
			if act.Int64 > newest {
				newest, active = act.Int64, v.ID
			}
		}
		if n := len(out); n > 0 && out[n-1].ID == v.ID {
			out[n-1] = v // a later activation of the same version
			continue
		}
		out = append(out, v)
	}
	for i := range out {
		out[i].Active = out[i].ID == active
	}
	return out, wrap("policies", rows.Err())
}

// ActivePolicy is the version in force, nil when none was ever
// activated: one row, for the decision path.
func (s *Store) ActivePolicy(ctx context.Context, a Analyst) (*PolicyVersion, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	var v PolicyVersion
	var body string
	var at, act int64
	err = s.r.QueryRowContext(ctx, `SELECT v.id, v.version, v.body, v.note, v.created_by, v.created_at, p.activated_by, p.activated_at
		FROM policy_activations p JOIN policy_versions v ON v.id = p.version_id WHERE p.service = $1
		ORDER BY p.activated_at DESC, p.id DESC LIMIT 1`, a.Service).Scan(&v.ID, &v.Version, &body, &v.Note, &v.CreatedBy, &at, &v.ActivatedBy, &act)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, wrap("active policy", err)
	}
	v.Body, v.CreatedAt, v.ActivatedAt, v.Active = []byte(body), fromStamp(at), fromStamp(act), true
	return &v, nil
}
