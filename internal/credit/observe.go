package credit

import (
	"math"
	"strconv"
	"strings"
	"time"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// TeamObservation is what a report's score history tells the team about a
// business: each score's latest month with a value, Risk month by month,
// and its name and main industry from the header. The four scores of
// CreditScoreHistory are sent to every access model (API-Only withholds
// statement data points, not scores), so every analyst may see them.
func TeamObservation(id int32, name string, rows []upstream.CreditScoreHistoryRow, naics []upstream.NAICSCode, fetched time.Time) store.Observation {
	o := store.Observation{BusinessID: id, Latest: map[store.Score]store.KnownScore{}, Fetched: fetched, Name: name}
	put := func(s store.Score, month int, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		if k, ok := o.Latest[s]; !ok || month > k.Month {
			o.Latest[s] = store.KnownScore{Value: v, Month: month, Fetched: fetched}
		}
		// Every month of Pay, DBT and Z″ too, for the policy's validation
		// (Risk's months are o.Risk).
		if s != store.ScoreRisk {
			if o.Monthly == nil {
				o.Monthly = map[store.Score][]store.ScoreMonth{}
			}
			o.Monthly[s] = append(o.Monthly[s], store.ScoreMonth{Month: month, Value: v})
		}
	}
	for _, r := range rows {
		if r.Month < 1 || r.Month > 12 || r.Year < 1900 || r.Year > 9999 {
			continue
		}
		m := r.Year*100 + r.Month
		if r.RiskScore.OK {
			put(store.ScoreRisk, m, float64(r.RiskScore.V))
			o.Risk = append(o.Risk, store.ScoreMonth{Month: m, Value: float64(r.RiskScore.V)})
		}
		if r.PayScore.OK {
			put(store.ScorePay, m, float64(r.PayScore.V))
		}
		if r.DBTScore.OK {
			put(store.ScoreDBT, m, float64(r.DBTScore.V))
		}
		if r.ZScore.OK {
			put(store.ScoreZ, m, r.ZScore.V)
		}
	}
	if len(naics) > 0 {
		o.NAICS, o.NAICSTitle = naics[0].Code, naics[0].Name
	}
	return o
}

// LatestScores are a score history's latest Risk band and Z″, nil when the
// history has none.
func LatestScores(rows []upstream.CreditScoreHistoryRow) (band int, z *float64) {
	o := TeamObservation(1, "", rows, nil, time.Time{})
	if k, ok := o.Latest[store.ScoreRisk]; ok {
		band = Band(k.Value)
	}
	if k, ok := o.Latest[store.ScoreZ]; ok {
		v := k.Value
		z = &v
	}
	return band, z
}

// PortfolioObservations are what the portfolio's Pay and Z″ histories tell
// the team: each business's latest month with a score, per score. Both
// histories are sent to every access model, so every analyst may see them.
func PortfolioObservations(pay, z upstream.PortfolioScoreHistory, fetched time.Time) []store.Observation {
	// Both histories list the portfolio's businesses, usually the same ones.
	byID := make(map[int32]int, len(pay.Businesses))
	out := make([]store.Observation, 0, max(len(pay.Businesses), len(z.Businesses)))
	add := func(s store.Score, h upstream.PortfolioScoreHistory) {
		for _, b := range h.Businesses {
			best := store.KnownScore{}
			var months []store.ScoreMonth
			for _, m := range b.Scores {
				if !m.Score.OK || math.IsNaN(m.Score.V) || math.IsInf(m.Score.V, 0) || m.Month < 1 || m.Month > 12 || m.Year < 1900 || m.Year > 9999 {
					continue
				}
				month := m.Year*100 + m.Month
				months = append(months, store.ScoreMonth{Month: month, Value: m.Score.V})
				if month > best.Month {
					best = store.KnownScore{Value: m.Score.V, Month: month, Fetched: fetched}
				}
			}
			if best.Month == 0 || b.BusinessID <= 0 {
				continue
			}
			i, ok := byID[b.BusinessID]
			if !ok {
				i = len(out)
				byID[b.BusinessID] = i
				out = append(out, store.Observation{BusinessID: b.BusinessID, Fetched: fetched, Latest: map[store.Score]store.KnownScore{},
					Monthly: map[store.Score][]store.ScoreMonth{}})
			}
			out[i].Latest[s] = best
			out[i].Monthly[s] = months
		}
	}
	add(store.ScorePay, pay)
	add(store.ScoreZ, z)
	return out
}

// ReportReadings are the latest Risk and DBT of a report's score history,
// to be remembered as last seen.
func ReportReadings(id int32, hist []upstream.CreditScoreHistoryRow) []store.Reading {
	var out []store.Reading
	var risk, dbt upstream.Num[int]
	ry, rm, dy, dm := 0, 0, 0, 0
	for _, r := range hist {
		at := r.Year*12 + r.Month
		if r.RiskScore.OK && at >= ry*12+rm {
			risk, ry, rm = r.RiskScore, r.Year, r.Month
		}
		if r.DBTScore.OK && at >= dy*12+dm {
			dbt, dy, dm = r.DBTScore, r.Year, r.Month
		}
	}
	if risk.OK {
		out = append(out, store.Reading{BusinessID: id, Score: store.ScoreRisk, Value: float64(risk.V)})
	}
	if dbt.OK {
		out = append(out, store.Reading{BusinessID: id, Score: store.ScoreDBT, Value: float64(dbt.V)})
	}
	return out
}

// PortfolioReadings are the latest values of a portfolio history of score
// s (Pay or Z″), to be remembered as seen.
func PortfolioReadings(s store.Score, latest map[int32]Latest) []store.Reading {
	out := make([]store.Reading, 0, len(latest))
	for id, l := range latest {
		out = append(out, store.Reading{BusinessID: id, Score: s, Value: l.Value})
	}
	return out
}

// fiscalYearKey is the statements' data point naming their fiscal year.
const fiscalYearKey = "FiscalYear"

// StatementYear is the newest fiscal year among statements (their
// FiscalYear point, as a number or as text), 0 when none names one: what
// the team keeps so that a new statement year brings a review forward.
func StatementYear(stmts []upstream.AnnualFinancials) int {
	newest := 0
	for _, s := range stmts {
		dp, ok := s.Values[fiscalYearKey]
		if !ok {
			continue
		}
		y := 0
		switch {
		case dp.Value.OK && dp.Value.V == math.Trunc(dp.Value.V) && dp.Value.V >= 1900 && dp.Value.V <= 9999:
			y = int(dp.Value.V)
		case dp.Text != "":
			if n, err := strconv.Atoi(strings.TrimSpace(dp.Text)); err == nil && n >= 1900 && n <= 9999 {
				y = n
			}
		}
		newest = max(newest, y)
	}
	return newest
}
