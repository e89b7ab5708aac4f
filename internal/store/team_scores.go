package store

import (
	"context"
	"database/sql"
	"math"
	"time"
)

// The team's latest known scores: what any analyst's page received from
// the service for a business one of the team's accounts is linked to, so
// the accounts pages show risk without spending anyone's hourly budget.
// Only businesses linked to an account are kept, which bounds the tables
// by MaxAccounts (four scores each, MaxRiskMonths months of Risk).

// MaxRiskMonths is how many months of Risk are kept per business: the
// span of MaxLedgers monthly ledgers.
const MaxRiskMonths = 36

// KnownScore is one score's latest value, its month (YYYYMM) and when the
// service sent it.
type KnownScore struct {
	Value   float64
	Month   int
	Fetched time.Time
}

// Observation is what a page received of one business: its latest
// scores, its Risk by month and, when the header loaded, its name and main
// industry.
type Observation struct {
	BusinessID int32
	Latest     map[Score]KnownScore
	Risk       []ScoreMonth
	// Monthly are Pay, DBT and Z″ by month (team_score_months), for the
	// policy's validation; Risk by month is Risk above.
	Monthly map[Score][]ScoreMonth
	// Name, NAICS and NAICSTitle are kept when NAICS is not empty.
	Name, NAICS, NAICSTitle string
	Fetched                 time.Time
}

// TeamBusiness is a linked business's name and main industry.
type TeamBusiness struct {
	Name, NAICS, NAICSTitle string
}

// ScoreMonth is one month's (YYYYMM) value of a score.
type ScoreMonth struct {
	Month int
	Value float64
}

// checkMonth accepts YYYYMM months of years 1900–9999.
func checkMonth(m int) bool { return m >= 190001 && m <= 999912 && m%100 >= 1 && m%100 <= 12 }

// RecordScores keeps a business's latest scores and its Risk by month,
// when an account of the team is linked to it; kept is false when none is
// (nothing is written). It is idempotent: a value already known, from a
// copy fetched no later, writes nothing.
func (s *Store) RecordScores(ctx context.Context, a Analyst, o Observation) (kept bool, err error) {
	business, latest, risk := o.BusinessID, o.Latest, o.Risk
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err = team(a)
	if err != nil {
		return false, err
	}
	if err := checkObservation(o); err != nil {
		return false, err
	}
	if len(latest) == 0 && len(risk) == 0 && len(o.Monthly) == 0 && o.NAICS == "" {
		return false, nil
	}
	var linked int
	if err := s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM team_accounts WHERE service = $1 AND business_id = $2",
		a.Service, int64(business)).Scan(&linked); err != nil {
		return false, wrap("record scores", err)
	}
	if linked == 0 {
		return false, nil
	}
	err = s.teamWriteIfOf(ctx, a.Service, "record scores", touchBusinesses(business), func(tx *sql.Tx) (bool, error) {
		return s.recordTx(ctx, tx, a.Service, o)
	})
	return err == nil, err
}

// recordTx writes what o tells of a business already known to be linked,
// and reports whether any row changed.
func (s *Store) recordTx(ctx context.Context, tx *sql.Tx, service string, o Observation) (changed bool, err error) {
	note := func(res sql.Result, err error) error {
		if err != nil {
			return err
		}
		// A driver that cannot count counts as a change.
		n, err := res.RowsAffected()
		changed = changed || n > 0 || err != nil
		return nil
	}
	for sc, k := range o.Latest {
		// A newer month, or a later copy, replaces; the same copy again
		// writes nothing.
		if err := note(tx.ExecContext(ctx, `INSERT INTO team_scores (service, business_id, score, month, value, fetched_at)
			VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (service, business_id, score) DO UPDATE SET month = excluded.month, value = excluded.value, fetched_at = excluded.fetched_at
			WHERE excluded.month > team_scores.month OR (excluded.month = team_scores.month AND excluded.fetched_at > team_scores.fetched_at)`,
			service, int64(o.BusinessID), string(sc), k.Month, k.Value, k.Fetched.UnixMicro())); err != nil {
			return false, err
		}
	}
	if o.NAICS != "" {
		if err := note(tx.ExecContext(ctx, `INSERT INTO team_businesses (service, business_id, name, naics, naics_title, fetched_at)
			VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (service, business_id) DO UPDATE SET name = excluded.name, naics = excluded.naics, naics_title = excluded.naics_title, fetched_at = excluded.fetched_at
			WHERE team_businesses.naics <> excluded.naics OR team_businesses.name <> excluded.name OR team_businesses.naics_title <> excluded.naics_title`,
			service, int64(o.BusinessID), tidyName(o.Name), tidyName(o.NAICS), tidyName(o.NAICSTitle), o.Fetched.UnixMicro())); err != nil {
			return false, err
		}
	}
	newest := 0
	for _, r := range o.Risk {
		newest = max(newest, r.Month)
		if err := note(tx.ExecContext(ctx, `INSERT INTO team_risk_months (service, business_id, month, value) VALUES ($1, $2, $3, $4)
			ON CONFLICT (service, business_id, month) DO UPDATE SET value = excluded.value WHERE team_risk_months.value <> excluded.value`,
			service, int64(o.BusinessID), r.Month, r.Value)); err != nil {
			return false, err
		}
	}
	if newest > 0 {
		oldest := monthIndex(newest) - MaxRiskMonths + 1
		if err := note(tx.ExecContext(ctx, "DELETE FROM team_risk_months WHERE service = $1 AND business_id = $2 AND month < $3",
			service, int64(o.BusinessID), oldest/12*100+oldest%12+1)); err != nil {
			return false, err
		}
	}
	if err := recordMonthsTx(ctx, tx, service, o, note); err != nil {
		return false, err
	}
	return changed, nil
}

// checkObservation refuses a business id or a score the store cannot
// keep.
func checkObservation(o Observation) error {
	if err := checkBusiness(o.BusinessID); err != nil {
		return err
	}
	for sc, k := range o.Latest {
		if !sc.Valid() || !checkMonth(k.Month) || math.IsNaN(k.Value) || math.IsInf(k.Value, 0) {
			return invalid("score", "not a score of a month")
		}
	}
	for _, r := range o.Risk {
		if !checkMonth(r.Month) || math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
			return invalid("score", "not a score of a month")
		}
	}
	for sc, ms := range o.Monthly {
		if !sc.Valid() || sc == ScoreRisk {
			return invalid("score", "Pay, DBT or Z″ by month")
		}
		for _, r := range ms {
			if !checkMonth(r.Month) || math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
				return invalid("score", "not a score of a month")
			}
		}
	}
	return nil
}

// monthIndex counts months from year 0: YYYYMM to a number months can be
// subtracted from.
func monthIndex(m int) int { return m/100*12 + m%100 - 1 }

// KnownScores are the latest known scores of every business the team's
// accounts link to.
func (s *Store) KnownScores(ctx context.Context, a Analyst) (map[int32]map[Score]KnownScore, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT business_id, score, month, value, fetched_at FROM team_scores WHERE service = $1", a.Service)
	if err != nil {
		return nil, wrap("known scores", err)
	}
	defer rows.Close()
	out := map[int32]map[Score]KnownScore{}
	for rows.Next() {
		var b int64
		var sc Score
		var k KnownScore
		var at int64
		if err := rows.Scan(&b, &sc, &k.Month, &k.Value, &at); err != nil {
			return nil, wrap("known scores", err)
		}
		k.Fetched = fromStamp(at)
		if out[int32(b)] == nil {
			out[int32(b)] = map[Score]KnownScore{}
		}
		out[int32(b)][sc] = k
	}
	return out, wrap("known scores", rows.Err())
}

// RiskAsOf is each business's Risk in the latest month up to month
// (YYYYMM) that the team knows: the band an account had at a ledger date.
func (s *Store) RiskAsOf(ctx context.Context, a Analyst, month int) (map[int32]float64, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT r.business_id, r.value FROM team_risk_months r
		WHERE r.service = $1 AND r.month = (SELECT MAX(x.month) FROM team_risk_months x
			WHERE x.service = $1 AND x.business_id = r.business_id AND x.month <= $2)`, a.Service, month)
	if err != nil {
		return nil, wrap("risk as of", err)
	}
	defer rows.Close()
	out := map[int32]float64{}
	for rows.Next() {
		var b int64
		var v float64
		if err := rows.Scan(&b, &v); err != nil {
			return nil, wrap("risk as of", err)
		}
		out[int32(b)] = v
	}
	return out, wrap("risk as of", rows.Err())
}

// TeamBusinesses are the names and industries known of linked businesses.
func (s *Store) TeamBusinesses(ctx context.Context, a Analyst) (map[int32]TeamBusiness, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT business_id, name, naics, naics_title FROM team_businesses WHERE service = $1", a.Service)
	if err != nil {
		return nil, wrap("team businesses", err)
	}
	defer rows.Close()
	out := map[int32]TeamBusiness{}
	for rows.Next() {
		var b int64
		var tb TeamBusiness
		if err := rows.Scan(&b, &tb.Name, &tb.NAICS, &tb.NAICSTitle); err != nil {
			return nil, wrap("team businesses", err)
		}
		out[int32(b)] = tb
	}
	return out, wrap("team businesses", rows.Err())
}

// RiskMonths are the known months of Risk of one business, oldest first.
func (s *Store) RiskMonths(ctx context.Context, a Analyst, business int32) ([]ScoreMonth, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT month, value FROM team_risk_months WHERE service = $1 AND business_id = $2 ORDER BY month",
		a.Service, int64(business))
	if err != nil {
		return nil, wrap("risk months", err)
	}
	defer rows.Close()
	var out []ScoreMonth
	for rows.Next() {
		var m ScoreMonth
		if err := rows.Scan(&m.Month, &m.Value); err != nil {
			return nil, wrap("risk months", err)
		}
		out = append(out, m)
	}
	return out, wrap("risk months", rows.Err())
}
