package store

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"
)

// AuditFilter narrows a team's log; zero fields match everything. Actor,
// Action and Account match exactly; From and To bound the entry's time,
// From included and To not.
type AuditFilter struct {
	Actor, Action, Account string
	From, To               time.Time
}

// AuditPage is one page of a log listed newest first: the entries numbered
// below Before (0: from the newest), at most Size of them (0 or past
// MaxAuditPage: MaxAuditPage).
type AuditPage struct {
	Before int64
	Size   int
}

// MaxAuditPage bounds a page of the log.
const MaxAuditPage = 200

// auditBatch is how many entries AuditLog reads per query: few enough that
// one query stays well within the store's timeout, many enough that a
// 100,000-entry log takes a hundred queries.
const auditBatch = 1000

// auditColumns are an entry's columns in scanAudit's order.
const auditColumns = "seq, at, actor, action, account, business_id, old_value, new_value, reason, prev_hash, hash"

// AuditEntries is one page of the team's log, newest first, filtered; more
// says older matching entries follow (ask again with Before set to the
// last entry's Seq).
func (s *Store) AuditEntries(ctx context.Context, team string, f AuditFilter, p AuditPage) (entries []AuditEntry, more bool, err error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	team, err = teamKey(team)
	if err != nil {
		return nil, false, err
	}
	if p.Size <= 0 || p.Size > MaxAuditPage {
		p.Size = MaxAuditPage
	}
	where, args := f.where(team)
	if p.Before > 0 {
		args = append(args, p.Before)
		where += " AND seq < $" + strconv.Itoa(len(args))
	}
	args = append(args, p.Size+1)
	// Filters make many shapes of query: run unprepared, so they do not
	// crowd out the prepared statements of every page.
	rows, err := s.r.db.QueryContext(ctx, "SELECT "+auditColumns+" FROM audit_entries WHERE "+where+
		" ORDER BY seq DESC LIMIT $"+strconv.Itoa(len(args)), args...)
	if err != nil {
		return nil, false, wrap("audit entries", err)
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanAudit(rows)
		if err != nil {
			return nil, false, wrap("audit entries", err)
		}
		entries = append(entries, e)
	}
	if err := rows.Err(); err != nil {
		return nil, false, wrap("audit entries", err)
	}
	if len(entries) > p.Size {
		return entries[:p.Size], true, nil
	}
	return entries, false, nil
}

// where is the filter as SQL over the team's entries, with its arguments
// ($1 is the team).
func (f AuditFilter) where(team string) (string, []any) {
	var b strings.Builder
	b.WriteString("team = $1")
	args := []any{team}
	add := func(cond string, v any) {
		args = append(args, v)
		fmt.Fprintf(&b, " AND %s $%d", cond, len(args))
	}
	if f.Actor != "" {
		add("actor =", f.Actor)
	}
	if f.Action != "" {
		add("action =", f.Action)
	}
	if f.Account != "" {
		add("account =", f.Account)
	}
	if !f.From.IsZero() {
		add("at >=", f.From.UnixMicro())
	}
	if !f.To.IsZero() {
		add("at <", f.To.UnixMicro())
	}
	return b.String(), args
}

// AuditLog yields the team's log oldest first, filtered, as it stood when
// the iteration began (entries appended meanwhile are left for the next
// reading). It reads in batches, each its own short query, so a slow
// reader (a CSV download) holds no connection between batches and memory
// stays flat however long the log. An error ends the iteration.
func (s *Store) AuditLog(ctx context.Context, team string, f AuditFilter) iter.Seq2[AuditEntry, error] {
	return func(yield func(AuditEntry, error) bool) {
		team, err := teamKey(team)
		if err != nil {
			yield(AuditEntry{}, err)
			return
		}
		last, err := s.auditHeadSeq(ctx, team)
		if err != nil {
			yield(AuditEntry{}, err)
			return
		}
		where, args := f.where(team)
		args = append(args, int64(0), last)
		query := "SELECT " + auditColumns + " FROM audit_entries WHERE " + where +
			" AND seq > $" + strconv.Itoa(len(args)-1) + " AND seq <= $" + strconv.Itoa(len(args)) +
			" ORDER BY seq LIMIT " + strconv.Itoa(auditBatch)
		for {
			batch, err := s.auditBatch(ctx, query, args)
			if err != nil {
				yield(AuditEntry{}, err)
				return
			}
			for _, e := range batch {
				if !yield(e, nil) {
					return
				}
			}
			if len(batch) < auditBatch {
				return
			}
			args[len(args)-2] = batch[len(batch)-1].Seq
		}
	}
}

// auditHeadSeq is the number of the team's last entry, 0 for none.
func (s *Store) auditHeadSeq(ctx context.Context, team string) (int64, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var seq int64
	err := s.r.QueryRowContext(ctx, "SELECT seq FROM audit_heads WHERE team = $1", team).Scan(&seq)
	if err == sql.ErrNoRows {
		return 0, nil
	}
	return seq, wrap("audit head", err)
}

// auditBatch runs one batch's query within the store's timeout.
func (s *Store) auditBatch(ctx context.Context, query string, args []any) ([]AuditEntry, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	rows, err := s.r.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap("audit log", err)
	}
	defer rows.Close()
	out := make([]AuditEntry, 0, auditBatch)
	for rows.Next() {
		e, err := scanAudit(rows)
		if err != nil {
			return nil, wrap("audit log", err)
		}
		out = append(out, e)
	}
	return out, wrap("audit log", rows.Err())
}

// scanAudit reads one row of auditColumns.
func scanAudit(rows *sql.Rows) (AuditEntry, error) {
	var e AuditEntry
	var at, business int64
	err := rows.Scan(&e.Seq, &at, &e.Actor, &e.Action, &e.Account, &business,
		&e.OldValue, &e.NewValue, &e.Reason, &e.PrevHash, &e.Hash)
	e.At, e.BusinessID = fromStamp(at), int32(business)
	return e, err
}
