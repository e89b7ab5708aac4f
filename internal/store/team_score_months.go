package store

import (
	"context"
	"database/sql"
	"math"
)

// Pay, DBT and Z″ by month (issue 45), kept like Risk by month: what the
// team knew of a linked business's scores at each month-end, for the
// credit policy's validation. Pages that receive a business's score
// history or the portfolio's Pay and Z″ histories record them.

// recordMonthsTx writes o's monthly Pay, DBT and Z″ and drops each
// score's months older than MaxRiskMonths before its newest; note counts
// the changes.
func recordMonthsTx(ctx context.Context, tx *sql.Tx, service string, o Observation, note func(sql.Result, error) error) error {
	for _, sc := range Scores {
		ms := o.Monthly[sc]
		if sc == ScoreRisk || len(ms) == 0 {
			continue
		}
		newest := 0
		for _, r := range ms {
			newest = max(newest, r.Month)
		}
		// Months already out of the window are not written, so the same
		// long history again changes nothing.
		oldest := monthIndex(newest) - MaxRiskMonths + 1
		for _, r := range ms {
			if monthIndex(r.Month) < oldest {
				continue
			}
			if err := note(tx.ExecContext(ctx, `INSERT INTO team_score_months (service, business_id, score, month, value) VALUES ($1, $2, $3, $4, $5)
				ON CONFLICT (service, business_id, score, month) DO UPDATE SET value = excluded.value WHERE team_score_months.value <> excluded.value`,
				service, int64(o.BusinessID), string(sc), r.Month, r.Value)); err != nil {
				return err
			}
		}
		if err := note(tx.ExecContext(ctx, "DELETE FROM team_score_months WHERE service = $1 AND business_id = $2 AND score = $3 AND month < $4",
			service, int64(o.BusinessID), string(sc), oldest/12*100+oldest%12+1)); err != nil {
			return err
		}
	}
	return nil
}

// MonthScores are a business's four scores as known at a month-end, NaN
// when the team knew none by then.
type MonthScores struct {
	Risk, Pay, DBT, Z float64
}

// ScoresAsOf is each business's latest known month of each score up to
// month (YYYYMM): what the team knew at that month-end. A business with
// no score known by then is absent.
func (s *Store) ScoresAsOf(ctx context.Context, a Analyst, month int) (map[int32]MonthScores, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT r.business_id, 'risk', r.value FROM team_risk_months r
		WHERE r.service = $1 AND r.month = (SELECT MAX(x.month) FROM team_risk_months x
			WHERE x.service = $1 AND x.business_id = r.business_id AND x.month <= $2)
		UNION ALL
		SELECT m.business_id, m.score, m.value FROM team_score_months m
		WHERE m.service = $1 AND m.month = (SELECT MAX(x.month) FROM team_score_months x
			WHERE x.service = $1 AND x.business_id = m.business_id AND x.score = m.score AND x.month <= $2)`, a.Service, month)
	if err != nil {
		return nil, wrap("scores as of", err)
	}
	defer rows.Close()
	nan := math.NaN()
	out := map[int32]MonthScores{}
	for rows.Next() {
		var b int64
		var sc Score
		var v float64
		if err := rows.Scan(&b, &sc, &v); err != nil {
			return nil, wrap("scores as of", err)
		}
		ms, ok := out[int32(b)]
		if !ok {
			ms = MonthScores{nan, nan, nan, nan}
		}
		switch sc {
		case ScoreRisk:
			ms.Risk = v
		case ScorePay:
			ms.Pay = v
		case ScoreDBT:
			ms.DBT = v
		case ScoreZ:
			ms.Z = v
		}
		out[int32(b)] = ms
	}
	return out, wrap("scores as of", rows.Err())
}
