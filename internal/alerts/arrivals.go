package alerts

import (
	"context"
	"fmt"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// What fresh scores say beyond the alert rules is recorded here too,
// where they arrive: the team's latest known scores (issue 26), the
// analyst's last-seen marks (the folders' triage, the home page's
// changes) and the statement years that bring reviews forward (issue 27).
// Only values every access model may see are shared with the team (the
// four scores of a report's history, the portfolio's Pay and Z″), and the
// store writes once per change: a value already known moves nothing.

// Records is where arrivals are kept: the store (internal/store), which
// keeps the team's latest known scores (one business at a time, kept
// false when no account links to it, or many at once for those an
// account links to), the analyst's last-seen marks and the newest
// statement year of each business, which brings its accounts' reviews
// forward.
type Records interface {
	RecordScores(ctx context.Context, a store.Analyst, o store.Observation) (kept bool, err error)
	RecordKnownScores(ctx context.Context, a store.Analyst, obs []store.Observation) (int, error)
	MarkSeen(ctx context.Context, a store.Analyst, readings []store.Reading) error
	RecordStatementYear(ctx context.Context, a store.Analyst, business int32, year int, fetched time.Time) (bool, error)
}

// Arrivals records what a page's fresh answers say. Each method is one
// write at most; a failing store loses that record only.
type Arrivals struct {
	st Records
}

// NewArrivals records into st (nil: nothing is kept).
func NewArrivals(st Records) *Arrivals {
	return &Arrivals{st: st}
}

// Report is a business's score history as a report (or a fetch for the
// team's accounts) received it.
type Report struct {
	ID      int32
	Name    string
	History []upstream.CreditScoreHistoryRow
	// NAICS are the header's industry codes, nil when not had.
	NAICS   []upstream.NAICSCode
	Fetched time.Time
}

// TeamScores keeps a report's latest scores for the team. kept is false
// when nothing links the business to an account (asked again next time:
// an import may link it meanwhile) or the team's scores are not kept.
func (ar *Arrivals) TeamScores(ctx context.Context, a store.Analyst, r Report) (kept bool, err error) {
	if ar.st == nil || r.ID == 0 {
		return false, nil
	}
	kept, err = ar.st.RecordScores(ctx, a, credit.TeamObservation(r.ID, r.Name, r.History, r.NAICS, r.Fetched))
	if err != nil {
		return false, fmt.Errorf("alerts: team scores: %w", err)
	}
	return kept, nil
}

// KeepsPortfolio reports whether the portfolio's scores are kept for the
// team at all, so a page need not mark copies it never recorded.
func (ar *Arrivals) KeepsPortfolio() bool { return ar.st != nil }

// PortfolioScores keeps the latest Pay and Z″ of the portfolio's
// histories as the team's known scores; either may be empty.
func (ar *Arrivals) PortfolioScores(ctx context.Context, a store.Analyst, pay, z upstream.PortfolioScoreHistory, fetched time.Time) error {
	if ar.st == nil {
		return nil
	}
	obs := credit.PortfolioObservations(pay, z, fetched)
	if len(obs) == 0 {
		return nil
	}
	if _, err := ar.st.RecordKnownScores(ctx, a, obs); err != nil {
		return fmt.Errorf("alerts: portfolio scores: %w", err)
	}
	return nil
}

// ReportSeen remembers the latest Risk and DBT of a report's history as
// the analyst's last-seen marks: they come only with a report, and the
// folder pages and the watch list show them from there. noted is false
// when the history had neither.
func (ar *Arrivals) ReportSeen(ctx context.Context, a store.Analyst, id int32, hist []upstream.CreditScoreHistoryRow) (noted bool, err error) {
	readings := credit.ReportReadings(id, hist)
	if ar.st == nil || len(readings) == 0 {
		return false, nil
	}
	if err := ar.st.MarkSeen(ctx, a, readings); err != nil {
		return false, fmt.Errorf("alerts: mark seen: %w", err)
	}
	return true, nil
}

// PortfolioSeen remembers the portfolio's latest Pay and Z″ as seen,
// writing only the new and changed values against seen (the marks the
// page read): an unchanged mark keeps its time anyway, and a visit then
// writes nothing.
func (ar *Arrivals) PortfolioSeen(ctx context.Context, a store.Analyst, seen map[store.SeenKey]store.Seen, pay, z map[int32]credit.Latest) error {
	if ar.st == nil {
		return nil
	}
	var fresh []store.Reading
	for _, r := range append(credit.PortfolioReadings(store.ScorePay, pay), credit.PortfolioReadings(store.ScoreZ, z)...) {
		if s, ok := seen[store.SeenKey{BusinessID: r.BusinessID, Score: r.Score}]; !ok || s.Value != r.Value {
			fresh = append(fresh, r)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	if err := ar.st.MarkSeen(ctx, a, fresh); err != nil {
		return fmt.Errorf("alerts: mark seen: %w", err)
	}
	return nil
}

// Statements keeps the newest statement year of statements that arrived
// for business id, which brings its accounts' reviews forward.
func (ar *Arrivals) Statements(ctx context.Context, a store.Analyst, id int32, stmts []upstream.AnnualFinancials, now time.Time) error {
	year := credit.StatementYear(stmts)
	if ar.st == nil || id == 0 || year == 0 {
		return nil
	}
	if _, err := ar.st.RecordStatementYear(ctx, a, id, year, now); err != nil {
		return fmt.Errorf("alerts: statement year: %w", err)
	}
	return nil
}

// KeepsTeam reports whether a report's scores are kept for the team at
// all, so a page need not mark copies it never recorded.
func (ar *Arrivals) KeepsTeam() bool { return ar.st != nil }
