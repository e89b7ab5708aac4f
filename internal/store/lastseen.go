package store

import (
	"context"
	"database/sql"
	"math"
	"slices"
	"time"
)

// MaxSeen is how many (business, score) marks one analyst keeps: four
// scores for 25,000 businesses. Past it the marks not refreshed longest go,
// a tenth of them at once: pruning sorts every mark, so an analyst at the
// bound pays for it once per 10,000 new marks, not on every report.
const MaxSeen = 100000

// seenBound is MaxSeen; the tests lower it, since sorting 100,000 marks
// under the race detector takes longer than a write may.
var seenBound = MaxSeen

// Reading is one score of one business as a page showed it.
type Reading struct {
	BusinessID int32
	Score      Score
	Value      float64
}

// SeenKey addresses a last-seen mark.
type SeenKey struct {
	BusinessID int32
	Score      Score
}

// Seen is the value the analyst last saw and when the page showed it.
type Seen struct {
	Value float64
	At    time.Time
}

// MarkSeen records what the analyst has now seen. Call it after reading
// LastSeen for the same page, or every business looks unchanged. A mark
// whose value did not change keeps its time, so At is when the analyst
// first saw the value, and a visit that saw nothing new writes nothing:
// the workspace's version, which kept pages are keyed by, stays.
func (s *Store) MarkSeen(ctx context.Context, a Analyst, readings []Reading) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	for _, r := range readings {
		if err := checkBusiness(r.BusinessID); err != nil {
			return err
		}
		if !r.Score.Valid() {
			return invalid("score", "not a score")
		}
		if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
			return invalid("value", "not a number")
		}
	}
	readings, err := s.unseen(ctx, a, readings)
	if err != nil || len(readings) == 0 {
		return err
	}
	return s.write(ctx, a, "mark seen", func(tx *sql.Tx, id int64) error {
		// unseen dropped the unchanged marks; the WHERE still skips one
		// another write set to the same value since, which PostgreSQL
		// would otherwise write again as a new row version.
		upsert, err := tx.PrepareContext(ctx, `INSERT INTO last_seen (analyst_id, business_id, score, value, seen_at)
			VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (analyst_id, business_id, score) DO UPDATE SET value = excluded.value, seen_at = excluded.seen_at
			WHERE last_seen.value <> excluded.value`)
		if err != nil {
			return err
		}
		defer upsert.Close()
		now := s.stamp()
		for _, r := range readings {
			if _, err := upsert.ExecContext(ctx, id, r.BusinessID, string(r.Score), r.Value, now); err != nil {
				return err
			}
		}
		// Pruning sorts all the analyst's marks, so it waits until they
		// are past the bound; counting them is a walk of the key's index.
		var held int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM last_seen WHERE analyst_id = $1", id).Scan(&held); err != nil {
			return err
		}
		if held <= seenBound {
			return nil
		}
		return prune(ctx, tx, "last_seen", "business_id, score", "seen_at DESC, business_id, score", id, seenBound-seenBound/10)
	})
}

// unseen drops the readings whose marks already hold their values: most
// visits see what the analyst saw before, and reading the marks of a
// page's businesses costs far less than the writer's transaction.
func (s *Store) unseen(ctx context.Context, a Analyst, readings []Reading) ([]Reading, error) {
	if len(readings) == 0 {
		return nil, nil
	}
	ids := make([]int32, len(readings))
	for i, r := range readings {
		ids[i] = r.BusinessID
	}
	held, err := s.LastSeen(ctx, a, ids)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(slices.Clone(readings), func(r Reading) bool {
		m, ok := held[SeenKey{r.BusinessID, r.Score}]
		return ok && m.Value == r.Value
	}), nil
}

// LastSeen are the analyst's marks of the given businesses (a page's:
// the watch list, a folder's members, search results, the home page's
// moves). Reading every mark instead took 126 ms at the bound on SQLite
// (BenchmarkLastSeen).
func (s *Store) LastSeen(ctx context.Context, a Analyst, businesses []int32) (map[SeenKey]Seen, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return nil, err
	}
	out := map[SeenKey]Seen{}
	if len(businesses) == 0 {
		return out, nil
	}
	in, ids := s.idsIn("business_id", 3, businesses)
	rows, err := s.r.QueryContext(ctx, "SELECT business_id, score, value, seen_at FROM last_seen WHERE analyst_id = "+analystID+" AND "+in, a.Service, a.User, ids)
	if err != nil {
		return nil, wrap("last seen", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k SeenKey
		var v Seen
		// database/sql reads an integer column into an int32 through a
		// string: an allocation a row, which an int64 does not need.
		var id, at int64
		if err := rows.Scan(&id, &k.Score, &v.Value, &at); err != nil {
			return nil, wrap("last seen", err)
		}
		k.BusinessID = int32(id)
		v.At = fromStamp(at)
		out[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("last seen", err)
	}
	return out, nil
}
