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

// Personal access tokens (issue 46.2): a member's key to /api/v1. The
// store keeps the secret's SHA-256 only; the API package makes secrets and
// hashes them, so no secret ever reaches the database or a log line.

// Token scopes: a read token reads, a write token also asks for limits and
// pushes ledgers (within its member's role).
const (
	ScopeRead  = "read"
	ScopeWrite = "write"
)

// Bounds of tokens.
const (
	// MaxActiveTokens is how many unrevoked, unexpired tokens a member
	// holds at once.
	MaxActiveTokens = 20
	// MaxTokenNameLen bounds a token's name, in characters.
	MaxTokenNameLen = 80
	// MaxTokenLifetime is the longest a token lasts.
	MaxTokenLifetime = 366 * 24 * time.Hour
	// MaxTokenList is how many tokens the settings page lists, newest
	// first; older revoked or expired ones are forgotten at the next
	// creation once past tokenKeep.
	MaxTokenList = 50
	// tokenKeep is how long a revoked or expired token's row stays.
	tokenKeep = 90 * 24 * time.Hour
	// lastUseEvery is how often a token's last use is written: a busy
	// integration must not turn every read into a write.
	lastUseEvery = time.Minute
)

// AuditActionToken is the audit trail's action for a token made or
// revoked; AuditActionAPIWrite for a change asked through the API.
const (
	AuditActionToken    = "token"
	AuditActionAPIWrite = "api-write"
)

// ErrTokensFull: the member already holds MaxActiveTokens tokens.
var ErrTokensFull = fmt.Errorf("store: a member holds at most %d tokens at once; revoke one first", MaxActiveTokens)

// TokenSpec is a token as its member asks for it, with its secret already
// hashed.
type TokenSpec struct {
	Name    string
	Scope   string
	Expires time.Time
	// Hash is the lowercase hex SHA-256 of the secret; Prefix the
	// secret's first characters, shown in lists.
	Hash, Prefix string
}

// Token is one token as kept: never its secret.
type Token struct {
	ID        int64
	Service   string
	User      string
	Name      string
	Scope     string
	Prefix    string
	Created   time.Time
	Expires   time.Time
	LastUsed  time.Time // zero: never
	Revoked   time.Time // zero: not revoked
	RevokedBy string
}

// Active says the token may be used at now.
func (t Token) Active(now time.Time) bool { return t.Revoked.IsZero() && now.Before(t.Expires) }

// checkToken refuses a spec the store will not keep.
func (s *Store) checkToken(spec TokenSpec) (TokenSpec, error) {
	spec.Name = strings.TrimSpace(spec.Name)
	now := s.now()
	switch n := utf8.RuneCountInString(spec.Name); {
	case n == 0:
		return spec, invalid("name", "give the token a name, such as the system that will use it")
	case n > MaxTokenNameLen:
		return spec, invalid("name", "a token's name is at most %d characters", MaxTokenNameLen)
	case !cleanText(spec.Name) || strings.ContainsAny(spec.Name, "\r\n\t"):
		return spec, invalid("name", "the name is not one line of text")
	}
	if spec.Scope != ScopeRead && spec.Scope != ScopeWrite {
		return spec, invalid("scope", "the scope is read or write")
	}
	switch {
	case !spec.Expires.After(now):
		return spec, invalid("expires", "the expiry is in the past")
	case spec.Expires.Sub(now) > MaxTokenLifetime:
		return spec, invalid("expires", "a token lasts at most 366 days")
	}
	if len(spec.Hash) != 64 || spec.Prefix == "" || len(spec.Prefix) > 16 {
		return spec, invalid("token", "the token's hash is not a SHA-256")
	}
	return spec, nil
}

// CreateToken keeps a new token of the member, audited in the same
// transaction; ErrTokensFull past MaxActiveTokens. Revoked and expired
// tokens older than 90 days are forgotten here, so a member's rows stay
// bounded (the audit trail keeps that they existed).
func (s *Store) CreateToken(ctx context.Context, a Analyst, spec TokenSpec) (Token, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Token{}, err
	}
	if spec, err = s.checkToken(spec); err != nil {
		return Token{}, err
	}
	now := s.stamp()
	t := Token{ID: newID(), Service: a.Service, User: a.User, Name: spec.Name, Scope: spec.Scope, Prefix: spec.Prefix,
		Created: fromStamp(now), Expires: fromStamp(spec.Expires.UnixMicro())}
	err = s.auditTx(ctx, "create token", func(tx *sql.Tx) error {
		old := now - tokenKeep.Microseconds()
		if _, err := tx.ExecContext(ctx, `DELETE FROM api_tokens WHERE service = $1 AND user_name = $2
			AND ((revoked_at > 0 AND revoked_at < $3) OR expires_at < $3)`, a.Service, a.User, old); err != nil {
			return err
		}
		var active int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM api_tokens WHERE service = $1 AND user_name = $2
			AND revoked_at = 0 AND expires_at > $3`, a.Service, a.User, now).Scan(&active); err != nil {
			return err
		}
		if active >= MaxActiveTokens {
			return ErrTokensFull
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO api_tokens (id, service, user_name, name, scope, hash, prefix,
			created_at, expires_at, last_used_at, revoked_at, revoked_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, 0, '')`,
			t.ID, a.Service, a.User, t.Name, t.Scope, spec.Hash, t.Prefix, now, t.Expires.UnixMicro()); err != nil {
			return err
		}
		_, err := s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionToken,
			NewValue: fmt.Sprintf("created %s token %d %q (%s…), expires %s", t.Scope, t.ID, t.Name, t.Prefix, t.Expires.Format(DateLayout)),
			Reason:   "personal access token for /api/v1"})
		return err
	})
	if err != nil {
		return Token{}, err
	}
	return t, nil
}

// tokenColumns are what scanToken reads, in its order.
const tokenColumns = `id, service, user_name, name, scope, prefix, created_at, expires_at, last_used_at, revoked_at, revoked_by`

func scanToken(r rowScanner) (Token, error) {
	var t Token
	var created, expires, used, revoked int64
	err := r.Scan(&t.ID, &t.Service, &t.User, &t.Name, &t.Scope, &t.Prefix, &created, &expires, &used, &revoked, &t.RevokedBy)
	t.Created, t.Expires = fromStamp(created), fromStamp(expires)
	if used > 0 {
		t.LastUsed = fromStamp(used)
	}
	if revoked > 0 {
		t.Revoked = fromStamp(revoked)
	}
	return t, err
}

// Tokens are the member's tokens, newest first, at most MaxTokenList.
func (s *Store) Tokens(ctx context.Context, a Analyst) ([]Token, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT "+tokenColumns+` FROM api_tokens WHERE service = $1 AND user_name = $2
		ORDER BY created_at DESC, id DESC LIMIT `+fmt.Sprint(MaxTokenList), a.Service, a.User)
	if err != nil {
		return nil, wrap("tokens", err)
	}
	defer rows.Close()
	var out []Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, wrap("tokens", err)
		}
		out = append(out, t)
	}
	return out, wrap("tokens", rows.Err())
}

// RevokeToken revokes one of the member's own tokens, audited in the same
// transaction. ErrNotFound for another's token or none; revoking a revoked
// token changes nothing and answers it as it is.
func (s *Store) RevokeToken(ctx context.Context, a Analyst, id int64) (Token, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Token{}, err
	}
	var t Token
	err = s.auditTx(ctx, "revoke token", func(tx *sql.Tx) error {
		t, err = scanToken(tx.QueryRowContext(ctx, "SELECT "+tokenColumns+" FROM api_tokens WHERE id = $1 AND service = $2 AND user_name = $3",
			id, a.Service, a.User))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil || !t.Revoked.IsZero() {
			return err
		}
		now := s.stamp()
		if _, err := tx.ExecContext(ctx, "UPDATE api_tokens SET revoked_at = $1, revoked_by = $2 WHERE id = $3", now, a.User, id); err != nil {
			return err
		}
		t.Revoked, t.RevokedBy = fromStamp(now), a.User
		_, err := s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionToken,
			OldValue: fmt.Sprintf("%s token %d %q (%s…)", t.Scope, t.ID, t.Name, t.Prefix), NewValue: "revoked",
			Reason: "revoked by its member"})
		return err
	})
	if err != nil {
		return Token{}, err
	}
	return t, nil
}

// UseToken finds the token of hash (lowercase hex SHA-256 of a secret)
// made for service and notes its use: at most once a minute, so reading
// stays a read. ErrNotFound when no token has that hash; a revoked or
// expired token is answered as it is, for the caller to refuse with its
// reason.
func (s *Store) UseToken(ctx context.Context, service, hash string) (Token, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	service = strings.TrimRight(service, "/")
	t, err := scanToken(s.r.QueryRowContext(ctx, "SELECT "+tokenColumns+" FROM api_tokens WHERE hash = $1 AND service = $2", hash, service))
	if errors.Is(err, sql.ErrNoRows) {
		return Token{}, ErrNotFound
	}
	if err != nil {
		return Token{}, wrap("use token", err)
	}
	now := s.now()
	if !t.Active(now) || now.Sub(t.LastUsed) < lastUseEvery {
		return t, nil
	}
	if _, err := s.w.ExecContext(ctx, "UPDATE api_tokens SET last_used_at = $1 WHERE id = $2 AND last_used_at < $1",
		now.UnixMicro(), t.ID); err != nil {
		return Token{}, wrap("use token", err)
	}
	t.LastUsed = fromStamp(now.UnixMicro())
	return t, nil
}

// AuditAPIWrite records, before it is carried out, that a token asked for a
// change: who, with which token, and what (method and path).
func (s *Store) AuditAPIWrite(ctx context.Context, t Token, what string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if r := []rune(what); len(r) > 200 {
		what = string(r[:199]) + "…"
	}
	_, err := s.AppendAudit(ctx, t.Service, AuditChange{Actor: t.User, Action: AuditActionAPIWrite,
		NewValue: what, Reason: fmt.Sprintf("with token %d %q (%s…)", t.ID, t.Name, t.Prefix)})
	return err
}

// dropTokens deletes the member's tokens with their workspace: the keys go
// with the member's data. Each one still active is logged revoked so, in
// the team's audit trail, no token made is left open.
func (s *Store) dropTokens(ctx context.Context, tx *sql.Tx, a Analyst) error {
	rows, err := tx.QueryContext(ctx, "SELECT "+tokenColumns+" FROM api_tokens WHERE service = $1 AND user_name = $2 AND revoked_at = 0 AND expires_at > $3",
		a.Service, a.User, s.stamp())
	if err != nil {
		return err
	}
	var changes []AuditChange
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			rows.Close()
			return err
		}
		changes = append(changes, AuditChange{Actor: a.User, Action: AuditActionToken,
			OldValue: fmt.Sprintf("%s token %d %q (%s…)", t.Scope, t.ID, t.Name, t.Prefix), NewValue: "revoked",
			Reason: "deleted with its member's workspace"})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM api_tokens WHERE service = $1 AND user_name = $2", a.Service, a.User); err != nil {
		return err
	}
	if len(changes) == 0 {
		return nil
	}
	_, err = s.appendAuditTx(ctx, tx, a.Service, changes...)
	return err
}
