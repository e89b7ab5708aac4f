package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"regexp"
	"time"
)

// Bounds of snapshots.
const (
	// MaxSnapshots is how many dated copies one analyst can keep.
	MaxSnapshots = 500
	// MaxSnapshotBytes bounds one copy's JSON; a full report tab's service
	// data is tens of kilobytes.
	MaxSnapshotBytes = 4 << 20
)

// tabPattern is a report tab's name as handlers pass it ("overview",
// "payments", "financials", "officers").
var tabPattern = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// SnapshotSpec is what "Save a dated copy" stores.
type SnapshotSpec struct {
	BusinessID   int32
	BusinessName string
	Tab          string
	// Fetched is when the service sent the data (the cache's time, not
	// the time of saving).
	Fetched time.Time
	// Data is the service data the tab was built from, as JSON; the store
	// keeps it verbatim and never looks inside.
	Data json.RawMessage
}

// SnapshotInfo is a snapshot without its data, for lists.
type SnapshotInfo struct {
	ID           int64
	BusinessID   int32
	BusinessName string
	Tab          string
	Fetched      time.Time
	Saved        time.Time
	// Size is the data's length in bytes.
	Size int
}

// Snapshot is a stored snapshot with its data.
type Snapshot struct {
	SnapshotInfo
	Data json.RawMessage
}

// SaveSnapshot stores a dated copy; ErrSnapshotsFull at MaxSnapshots.
func (s *Store) SaveSnapshot(ctx context.Context, a Analyst, spec SnapshotSpec) (SnapshotInfo, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	name, err := checkSnapshot(&spec)
	if err != nil {
		return SnapshotInfo{}, err
	}
	now := s.stamp()
	info := SnapshotInfo{ID: newID(), BusinessID: spec.BusinessID, BusinessName: name, Tab: spec.Tab,
		Fetched: fromStamp(spec.Fetched.UnixMicro()), Saved: fromStamp(now), Size: len(spec.Data)}
	err = s.write(ctx, a, "save snapshot", func(tx *sql.Tx, id int64) error {
		n, err := count(ctx, tx, "snapshots", id)
		if err != nil {
			return err
		}
		if n >= MaxSnapshots {
			return ErrSnapshotsFull
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO snapshots (id, analyst_id, business_id, business_name, tab, fetched_at, created_at, size, data)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			info.ID, id, spec.BusinessID, name, spec.Tab, spec.Fetched.UnixMicro(), now, len(spec.Data), string(spec.Data))
		return err
	})
	if err != nil {
		return SnapshotInfo{}, err
	}
	return info, nil
}

// checkSnapshot validates a spec and returns the trimmed business name.
func checkSnapshot(spec *SnapshotSpec) (string, error) {
	if err := checkBusiness(spec.BusinessID); err != nil {
		return "", err
	}
	name := tidyName(spec.BusinessName)
	switch {
	case !tabPattern.MatchString(spec.Tab):
		return "", invalid("tab", "not a report tab")
	case spec.Fetched.IsZero():
		return "", invalid("fetched", "the time the data was fetched is missing")
	case len(spec.Data) > MaxSnapshotBytes:
		return "", invalid("data", "a dated copy is at most %s bytes", grouped(MaxSnapshotBytes))
	// json.Valid lets broken UTF-8 through inside strings; PostgreSQL's
	// TEXT would refuse it later, so refuse it here on both engines.
	case !json.Valid(spec.Data) || !cleanText(string(spec.Data)):
		return "", invalid("data", "not valid JSON")
	}
	return name, nil
}

// Snapshots lists the analyst's snapshots, newest first, without data.
func (s *Store) Snapshots(ctx context.Context, a Analyst) ([]SnapshotInfo, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, business_id, business_name, tab, fetched_at, created_at, size FROM snapshots
		WHERE analyst_id = `+analystID+` ORDER BY created_at DESC, id DESC`, a.Service, a.User)
	if err != nil {
		return nil, wrap("snapshots", err)
	}
	defer rows.Close()
	var out []SnapshotInfo
	for rows.Next() {
		var i SnapshotInfo
		var fetched, saved int64
		if err := rows.Scan(&i.ID, &i.BusinessID, &i.BusinessName, &i.Tab, &fetched, &saved, &i.Size); err != nil {
			return nil, wrap("snapshots", err)
		}
		i.Fetched, i.Saved = fromStamp(fetched), fromStamp(saved)
		out = append(out, i)
	}
	return out, wrap("snapshots", rows.Err())
}

// Snapshot is one of the analyst's snapshots with its data; another
// analyst's is ErrNotFound.
func (s *Store) Snapshot(ctx context.Context, a Analyst, snapshot int64) (Snapshot, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return Snapshot{}, err
	}
	var sn Snapshot
	var fetched, saved int64
	var data string
	err = s.r.QueryRowContext(ctx, `SELECT id, business_id, business_name, tab, fetched_at, created_at, size, data FROM snapshots
		WHERE analyst_id = `+analystID+` AND id = $3`, a.Service, a.User, snapshot).
		Scan(&sn.ID, &sn.BusinessID, &sn.BusinessName, &sn.Tab, &fetched, &saved, &sn.Size, &data)
	if err == sql.ErrNoRows {
		return Snapshot{}, ErrNotFound
	}
	if err != nil {
		return Snapshot{}, wrap("snapshot", err)
	}
	sn.Fetched, sn.Saved, sn.Data = fromStamp(fetched), fromStamp(saved), json.RawMessage(data)
	return sn, nil
}

// DeleteSnapshot deletes one of the analyst's snapshots; another analyst's
// is ErrNotFound.
func (s *Store) DeleteSnapshot(ctx context.Context, a Analyst, snapshot int64) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.write(ctx, a, "delete snapshot", func(tx *sql.Tx, id int64) error {
		return deleteOwned(ctx, tx, "snapshots", snapshot, id)
	})
}
