package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The team's audit trail: one append-only log per team, each entry chained
// to the one before by its hash. A team is everyone signed in to one
// deployment against one service, named as the workspace names the service
// (Analyst.Service). The store has no way to change or delete an entry.
//
// # The chain
//
// Entries are numbered from 1 in each team's log (seq). Each entry's hash is
//
//	hash = lowercase hex of SHA-256( "creditdash-audit-v1\n" + prev_hash + "\n" + content )
//
// where prev_hash is the previous entry's hash (GenesisHash, 64 zeros, for
// entry 1) and content is the entry's nine fields in the order of the CSV
// download, seq, at, actor, action, account, business_id, old_value,
// new_value, reason, each written as its length in bytes in decimal, a
// colon, the field's UTF-8 bytes and a line feed ("5:alice\n"). The
// lengths make the encoding unambiguous whatever a field holds. seq is in
// decimal; at is UTC in RFC 3339 with six fractional digits
// (AuditTimeFormat, "2026-11-27T00:14:46.123456Z"); business_id is in
// decimal, or empty when the entry names no business. These are exactly
// the cells of /audit.csv, so the download can be checked by anyone with a
// SHA-256 tool (undoing the apostrophe the download puts before cells a
// spreadsheet would read as formulas: see AuditEntry.CSVRecord).

// GenesisHash is the prev_hash of a log's first entry.
const GenesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// AuditTimeFormat is how an entry's time is written in its hash's content
// and in the CSV download: RFC 3339 in UTC, to the microsecond it is kept.
const AuditTimeFormat = "2006-01-02T15:04:05.000000Z07:00"

// auditDomain starts every hashed text, so the hash of an entry is never
// the hash of anything else this product makes.
const auditDomain = "creditdash-audit-v1\n"

// Bounds of an entry's fields, in characters (actor, action and account in
// bytes, as names are bounded elsewhere).
const (
	MaxAuditValueLen  = 4000
	MaxAuditReasonLen = 2000
	maxAuditActionLen = 40
	maxAuditAccount   = 256
)

// AuditChange is one change to the team's data, as a caller records it.
type AuditChange struct {
	// Actor is who made the change: a user name, or "config" for what the
	// configuration put in force.
	Actor string
	// Action names the kind of change in lowercase: "role", "limit",
	// "approve"... (letters, digits, "-", "_" and ".").
	Action string
	// Account is the team's account the change concerns; "" for none.
	Account string
	// BusinessID is the service's business the change concerns; 0 for none.
	BusinessID int32
	// OldValue and NewValue are the value before and after, as text; ""
	// when there was none before or is none after.
	OldValue, NewValue string
	// Reason is why, as the person or the product gave it.
	Reason string
}

// AuditEntry is one entry of a team's log, as stored.
type AuditEntry struct {
	Seq int64
	At  time.Time
	AuditChange
	PrevHash, Hash string
}

// The actor and action of the roles the configuration puts in force.
const (
	AuditActorConfig = "config"
	AuditActionRole  = "role"
)

// AuditHash is the hash an entry must carry after prevHash (see the
// chain's definition above); verification recomputes it.
func AuditHash(prevHash string, e AuditEntry) string {
	// The text hashed is the fields' (fields), each after its length,
	// written into buffers on the stack: an import hashes an entry per
	// account it changes, 50,000 of them at most.
	var text, num [512]byte
	buf := append(append(append(text[:0], auditDomain...), prevHash...), '\n')
	field := func(buf, f []byte) []byte {
		buf = strconv.AppendInt(buf, int64(len(f)), 10)
		return append(append(append(buf, ':'), f...), '\n')
	}
	buf = field(buf, strconv.AppendInt(num[:0], e.Seq, 10))
	buf = field(buf, e.At.UTC().AppendFormat(num[:0], AuditTimeFormat))
	buf = appendText(buf, e.Actor, e.Action, e.Account)
	business := num[:0]
	if e.BusinessID != 0 {
		business = strconv.AppendInt(business, int64(e.BusinessID), 10)
	}
	buf = field(buf, business)
	buf = appendText(buf, e.OldValue, e.NewValue, e.Reason)
	sum := sha256.Sum256(buf)
	return hex.EncodeToString(sum[:])
}

// appendText writes text fields as AuditHash hashes them: each after its
// length.
func appendText(buf []byte, fields ...string) []byte {
	for _, f := range fields {
		buf = strconv.AppendInt(buf, int64(len(f)), 10)
		buf = append(append(append(buf, ':'), f...), '\n')
	}
	return buf
}

// fields are the entry's content as text, in the CSV's order.
func (e AuditEntry) fields() [9]string {
	business := ""
	if e.BusinessID != 0 {
		business = strconv.FormatInt(int64(e.BusinessID), 10)
	}
	return [9]string{strconv.FormatInt(e.Seq, 10), e.At.UTC().Format(AuditTimeFormat), e.Actor, e.Action,
		e.Account, business, e.OldValue, e.NewValue, e.Reason}
}

// teamKey checks a team's name (its service) as Analyst.key checks one.
func teamKey(team string) (string, error) {
	a, err := Analyst{Service: team, User: "team"}.key()
	if err != nil {
		return "", invalid("team", "not a team: the service URL is missing, too long or not valid text")
	}
	return a.Service, nil
}

// check refuses a change the log must not hold: fields missing, too long,
// or text PostgreSQL would refuse.
func (c AuditChange) check() error {
	runes := utf8.RuneCountInString
	switch {
	case c.Actor == "" || len(c.Actor) > maxUserLen:
		return invalid("actor", "the actor is missing or longer than %d bytes", maxUserLen)
	case !ValidAuditAction(c.Action):
		return invalid("action", "the action %q is not a lowercase word of at most %d characters", c.Action, maxAuditActionLen)
	case len(c.Account) > maxAuditAccount:
		return invalid("account", "the account is longer than %d bytes", maxAuditAccount)
	case c.BusinessID < 0:
		return invalid("business", "not a business id")
	case runes(c.OldValue) > MaxAuditValueLen || runes(c.NewValue) > MaxAuditValueLen:
		return invalid("value", "a value is longer than %s characters", grouped(MaxAuditValueLen))
	case runes(c.Reason) > MaxAuditReasonLen:
		return invalid("reason", "the reason is longer than %s characters", grouped(MaxAuditReasonLen))
	}
	for _, s := range []string{c.Actor, c.Account, c.OldValue, c.NewValue, c.Reason} {
		if !cleanText(s) {
			return invalid("text", "a field is not valid text")
		}
	}
	return nil
}

// ValidAuditAction accepts what an entry's action may be: a lowercase word
// such as "role" or "limit-request".
func ValidAuditAction(a string) bool {
	if a == "" || len(a) > maxAuditActionLen || a[0] < 'a' || a[0] > 'z' {
		return false
	}
	return strings.IndexFunc(a, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}) < 0
}

// AppendAudit appends one entry to the team's log and returns it as
// stored. Appends from any number of goroutines and replicas form one
// unbroken chain. A change that fails its checks is a *ValidationError and
// nothing is written.
func (s *Store) AppendAudit(ctx context.Context, team string, c AuditChange) (AuditEntry, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out []AuditEntry
	err := s.auditTx(ctx, "append audit", func(tx *sql.Tx) error {
		var err error
		out, err = s.appendAuditTx(ctx, tx, team, c)
		return err
	})
	if err != nil {
		return AuditEntry{}, err
	}
	return out[0], nil
}

// auditTx runs fn in a transaction on the writer.
func (s *Store) auditTx(ctx context.Context, op string, fn func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap(op, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		if isStoreError(err) {
			return err
		}
		return wrap(op, err)
	}
	return wrap(op, tx.Commit())
}

// appendAuditTx appends changes, in order, to the team's log inside tx: the
// way a change to the team's data and its entry commit together (or
// neither). It locks the team's head first, so the caller's transaction
// holds it to its commit; callers should append last, once their own
// writes are done, to hold it briefly.
func (s *Store) appendAuditTx(ctx context.Context, tx *sql.Tx, team string, changes ...AuditChange) ([]AuditEntry, error) {
	if _, err := teamKey(team); err != nil {
		return nil, err
	}
	for _, c := range changes {
		if err := c.cleaned().check(); err != nil {
			return nil, err
		}
	}
	out := make([]AuditEntry, 0, len(changes))
	if err := s.appendAuditSeq(ctx, tx, team, slices.Values(changes), func(e AuditEntry) { out = append(out, e) }); err != nil {
		return nil, err
	}
	return out, nil
}

// auditInsert names audit_entries' columns.
const auditInsert = `INSERT INTO audit_entries
	(team, seq, at, actor, action, account, business_id, old_value, new_value, reason, prev_hash, hash) VALUES `

// appendAuditSeq is appendAuditTx for changes made one at a time (an
// import's 50,000 limits): each is checked, chained and written batchRows
// entries per statement, and kept (when kept is not nil) without the
// changes or entries ever being held all at once. A change that fails its
// check fails the call, and the caller's transaction with it.
func (s *Store) appendAuditSeq(ctx context.Context, tx *sql.Tx, team string, changes iter.Seq[AuditChange], kept func(AuditEntry)) error {
	team, err := teamKey(team)
	if err != nil {
		return err
	}
	head, err := lockAuditHead(ctx, tx, team)
	if err != nil {
		return err
	}
	// Refusals counted past their bound in minutes gone by are summed
	// first, by whichever write of the team comes next.
	sums, err := pendingRefusals(ctx, tx, team, max(s.stamp(), head.at))
	if err != nil {
		return err
	}
	b := s.bulk(tx, 12, func(v string) string { return auditInsert + v })
	defer b.close()
	args := make([]any, 0, 12)
	start := head.Seq
	first := start + 1
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		if err := b.exec(ctx, args); err != nil {
			return fmt.Errorf("store: audit entries %d to %d: %w", first, head.Seq, err)
		}
		args, first = args[:0], head.Seq+1
		return nil
	}
	add := func(c AuditChange, keep bool) error {
		c = c.cleaned()
		if err := c.check(); err != nil {
			return err
		}
		e := AuditEntry{Seq: head.Seq + 1, At: fromStamp(max(s.stamp(), head.at)), AuditChange: c, PrevHash: head.Hash}
		e.Hash = AuditHash(e.PrevHash, e)
		args = append(args, team, e.Seq, e.At.UnixMicro(), c.Actor, c.Action, c.Account, int64(c.BusinessID),
			c.OldValue, c.NewValue, c.Reason, e.PrevHash, e.Hash)
		head = auditHead{Seq: e.Seq, at: e.At.UnixMicro(), Hash: e.Hash}
		if keep && kept != nil {
			kept(e)
		}
		if len(args) == batchRows*12 {
			return flush()
		}
		return nil
	}
	for _, c := range sums {
		if err := add(c, false); err != nil {
			return err
		}
	}
	for c := range changes {
		if err := add(c, true); err != nil {
			return err
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if head.Seq == start {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE audit_heads SET seq = $2, at = $3, hash = $4 WHERE team = $1`,
		team, head.Seq, head.at, head.Hash); err != nil {
		return fmt.Errorf("store: audit head: %w", err)
	}
	return nil
}

// auditHead is a team's last entry: its number, time and hash.
type auditHead struct {
	Seq  int64
	at   int64
	Hash string
}

// lockAuditHead reads the team's head, creating it for a first entry, and
// locks it until tx ends. On PostgreSQL the upsert's row lock makes a
// second append, on any connection or replica, wait and then read the
// first one's committed head; SQLite's single writer (BEGIN IMMEDIATE)
// serialises appends already.
func lockAuditHead(ctx context.Context, tx *sql.Tx, team string) (auditHead, error) {
	var h auditHead
	err := tx.QueryRowContext(ctx, `INSERT INTO audit_heads (team, seq, at, hash) VALUES ($1, 0, 0, $2)
		ON CONFLICT (team) DO UPDATE SET seq = audit_heads.seq
		RETURNING seq, at, hash`, team, GenesisHash).Scan(&h.Seq, &h.at, &h.Hash)
	if err != nil {
		return h, fmt.Errorf("store: audit head: %w", err)
	}
	return h, nil
}
