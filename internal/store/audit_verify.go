package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"
)

// AuditVerdict is what verifying a team's log found.
type AuditVerdict struct {
	// Entries is how many entries were checked and found in order before
	// the first that is not: all of them when the log is intact.
	Entries int64
	// Intact says every entry's hash matches its content and the entry
	// before, and nothing is missing.
	Intact bool
	// Broken is the number (seq) of the first entry that does not match,
	// or that is missing; 0 when intact.
	Broken int64
	// Problem says in words what is wrong with it; "" when intact.
	Problem string
}

// VerifyAudit walks the team's log from its first entry, recomputing every
// hash, and reports the first entry whose hash does not match: its
// content changed, an entry before it was removed or changed, or its
// prev_hash does not name the entry before. It also compares the last
// entry with the team's head, so deleting the newest entries shows. A
// team without entries is intact with 0 entries.
func (s *Store) VerifyAudit(ctx context.Context, team string) (AuditVerdict, error) {
	team, err := teamKey(team)
	if err != nil {
		return AuditVerdict{}, err
	}
	var v AuditVerdict
	prev := GenesisHash
	broken := func(seq int64, format string, args ...any) (AuditVerdict, error) {
		v.Broken, v.Problem = seq, fmt.Sprintf(format, args...)
		return v, nil
	}
	for e, err := range s.AuditLog(ctx, team, AuditFilter{}) {
		if err != nil {
			return AuditVerdict{}, err
		}
		want := v.Entries + 1
		switch {
		case e.Seq != want:
			return broken(want, "entry %d is missing: the next entry in the log is %d", want, e.Seq)
		case e.PrevHash != prev:
			return broken(e.Seq, "entry %d does not follow entry %d: its prev_hash is not that entry's hash", e.Seq, e.Seq-1)
		case AuditHash(prev, e) != e.Hash:
			return broken(e.Seq, "entry %d does not match its hash: its content was changed after it was written", e.Seq)
		}
		prev = e.Hash
		v.Entries++
	}
	head, err := s.readAuditHead(ctx, team)
	switch {
	case err != nil:
		return AuditVerdict{}, err
	case head.Seq > v.Entries:
		return broken(v.Entries+1, "entries %d to %d are missing: the log ends at entry %d but was written up to %d",
			v.Entries+1, head.Seq, v.Entries, head.Seq)
	case head.Hash != prev:
		return broken(v.Entries, "entry %d does not match the hash recorded for the log's last entry", v.Entries)
	}
	v.Intact = true
	return v, nil
}

// AuditHead is the team's log as written so far: its last entry's number
// and hash (0 and GenesisHash for an empty log). A verdict of the log
// holds while its head is the same (handlers keep it so).
func (s *Store) AuditHead(ctx context.Context, team string) (seq int64, hash string, err error) {
	team, err = teamKey(team)
	if err != nil {
		return 0, "", err
	}
	h, err := s.readAuditHead(ctx, team)
	return h.Seq, h.Hash, err
}

// readAuditHead reads the team's head without locking it: a team without
// one has written nothing.
func (s *Store) readAuditHead(ctx context.Context, team string) (auditHead, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	h := auditHead{Hash: GenesisHash}
	err := s.r.QueryRowContext(ctx, "SELECT seq, at, hash FROM audit_heads WHERE team = $1", team).Scan(&h.Seq, &h.at, &h.Hash)
	if err == sql.ErrNoRows {
		return auditHead{Hash: GenesisHash}, nil
	}
	return h, wrap("audit head", err)
}

// AuditCSVHeader is the header row of /audit.csv.
var AuditCSVHeader = []string{"seq", "at", "actor", "action", "account", "business_id", "old_value", "new_value", "reason", "prev_hash", "hash"}

// CSVRecord is the entry as a row of /audit.csv: the cells its hash covers,
// then prev_hash and hash. A text cell a spreadsheet would read as a
// formula gets a leading apostrophe, as the workspace's own CSV files do;
// here a cell that starts with an apostrophe gets one more, so removing
// the first apostrophe of every cell that has one gives back exactly the
// hashed text.
func (e AuditEntry) CSVRecord() []string {
	f := e.fields()
	row := make([]string, 0, len(AuditCSVHeader))
	row = append(row, f[0], f[1])
	for _, s := range f[2:] {
		if s != "" && s[0] == '\'' {
			s = "'" + s
		} else {
			s = cell(s)
		}
		row = append(row, s)
	}
	return append(row, e.PrevHash, e.Hash)
}

// ParseAuditCSVRecord reads a row of /audit.csv back into the entry it was
// written from, undoing CSVRecord's apostrophes: what an independent check
// of a download does before recomputing the hashes.
func ParseAuditCSVRecord(row []string) (AuditEntry, error) {
	if len(row) != len(AuditCSVHeader) {
		return AuditEntry{}, fmt.Errorf("store: an audit row has %d cells, want %d", len(row), len(AuditCSVHeader))
	}
	undo := func(s string) string {
		if s != "" && s[0] == '\'' {
			return s[1:]
		}
		return s
	}
	var e AuditEntry
	var err error
	if e.Seq, err = strconv.ParseInt(row[0], 10, 64); err != nil {
		return e, fmt.Errorf("store: audit row: seq %q is not a number", row[0])
	}
	if e.At, err = time.Parse(time.RFC3339Nano, row[1]); err != nil {
		return e, fmt.Errorf("store: audit row %d: at %q is not an RFC 3339 time", e.Seq, row[1])
	}
	if b := undo(row[5]); b != "" {
		n, err := strconv.ParseInt(b, 10, 32)
		if err != nil {
			return e, fmt.Errorf("store: audit row %d: business_id %q is not a number", e.Seq, b)
		}
		e.BusinessID = int32(n)
	}
	e.Actor, e.Action, e.Account = undo(row[2]), undo(row[3]), undo(row[4])
	e.OldValue, e.NewValue, e.Reason = undo(row[6]), undo(row[7]), undo(row[8])
	e.PrevHash, e.Hash = row[9], row[10]
	return e, nil
}
