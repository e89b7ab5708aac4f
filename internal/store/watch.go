package store

import (
	"context"
	"database/sql"
	"time"
)

// MaxWatches is how many businesses one analyst can watch.
const MaxWatches = 1000

// maxNameLen bounds a business or folder name kept for display.
const maxNameLen = 300

// Watch is one watched business.
type Watch struct {
	BusinessID int32
	// Name is the business's name when it was watched, so the watch list
	// can show a row before any of its data is loaded.
	Name  string
	Since time.Time
}

// Watch adds a business to the analyst's watch list, or refreshes its name
// when it is already there. It returns ErrWatchListFull at MaxWatches.
func (s *Store) Watch(ctx context.Context, a Analyst, business int32, name string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if err := checkBusiness(business); err != nil {
		return err
	}
	name = tidyName(name)
	return s.write(ctx, a, "watch", func(tx *sql.Tx, id int64) error {
		res, err := tx.ExecContext(ctx, "UPDATE watches SET name = $3 WHERE analyst_id = $1 AND business_id = $2", id, business, name)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n > 0 {
			return err
		}
		n, err := count(ctx, tx, "watches", id)
		if err != nil {
			return err
		}
		if n >= MaxWatches {
			return ErrWatchListFull
		}
		_, err = tx.ExecContext(ctx, "INSERT INTO watches (analyst_id, business_id, name, created_at) VALUES ($1, $2, $3, $4)",
			id, business, name, s.stamp())
		return err
	})
}

// Unwatch removes a business from the watch list; it is not an error when
// the business was not watched (a second click changes nothing).
func (s *Store) Unwatch(ctx context.Context, a Analyst, business int32) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.write(ctx, a, "unwatch", func(tx *sql.Tx, id int64) error {
		_, err := tx.ExecContext(ctx, "DELETE FROM watches WHERE analyst_id = $1 AND business_id = $2", id, business)
		return err
	})
}

// IsWatched reports whether the analyst watches the business.
func (s *Store) IsWatched(ctx context.Context, a Analyst, business int32) (bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return false, err
	}
	var n int
	err = s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM watches WHERE analyst_id = "+analystID+" AND business_id = $3",
		a.Service, a.User, business).Scan(&n)
	if err != nil {
		return false, wrap("is watched", err)
	}
	return n > 0, nil
}

// WatchList is every watched business, most recently watched first. It is
// also the rows of watchlist.csv.
func (s *Store) WatchList(ctx context.Context, a Analyst) ([]Watch, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT business_id, name, created_at FROM watches
		WHERE analyst_id = `+analystID+` ORDER BY created_at DESC, business_id`, a.Service, a.User)
	if err != nil {
		return nil, wrap("watch list", err)
	}
	defer rows.Close()
	var out []Watch
	for rows.Next() {
		var w Watch
		var at int64
		if err := rows.Scan(&w.BusinessID, &w.Name, &at); err != nil {
			return nil, wrap("watch list", err)
		}
		w.Since = fromStamp(at)
		out = append(out, w)
	}
	return out, wrap("watch list", rows.Err())
}
