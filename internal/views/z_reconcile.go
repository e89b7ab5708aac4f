package views

import (
	"math"

	"creditdash/internal/upstream"
)

// latestZ is the newest Z″ of a score history and its month; ok is false
// when the history has none.
func latestZ(hist []upstream.CreditScoreHistoryRow) (z float64, m monthIndex, ok bool) {
	for _, r := range hist {
		if !r.ZScore.OK || math.IsNaN(r.ZScore.V) {
			continue
		}
		if at := monthIndexOf(r.Year, r.Month); !ok || at > m {
			z, m, ok = r.ZScore.V, at, true
		}
	}
	return z, m, ok
}

// ZSource is the overview's Z″ card's period and source: the service's
// quarterly figure from its score history, not worked out from the
// statements, which is why Financials may show another number.
func ZSource(hist []upstream.CreditScoreHistoryRow) string {
	_, m, ok := latestZ(hist)
	if !ok {
		return ""
	}
	return "Z″ is for " + m.String() + ", the latest quarter reported, from the service's score history, not the annual statements; Financials works Z″ out per fiscal year."
}

// ZReconcile is Financials' one line on the overview's Z″: the same value
// as a year below, or why the statement-based values differ (another
// period). "" when the history has no Z″.
func (e ZExplanation) Reconcile(hist []upstream.CreditScoreHistoryRow, stmts []upstream.AnnualFinancials) string {
	z, m, ok := latestZ(hist)
	if !ok {
		return ""
	}
	shown := "The overview shows Z″ " + Decimal(z, 2) + " for " + m.String() + ", the latest quarter in the service's score history. "
	var latestEnd monthIndex
	for _, s := range stmts {
		end, ok := periodEnd(s)
		if !ok {
			continue
		}
		if end == m {
			return shown + "It is the service's figure for the fiscal year ending then, below."
		}
		latestEnd = max(latestEnd, end)
	}
	if latestEnd == 0 {
		return shown + "The statements below carry no period end, so no year can be set beside it."
	}
	return shown + "The Z″ below is worked out from each fiscal year's statements (the latest ending " + latestEnd.String() +
		"), another period, so it differs from the overview's."
}

// FinancialsURL is the report's Financials tab at its Z″ explanation.
func (h BusinessHeader) FinancialsURL() string {
	for _, t := range h.Tabs {
		if t.Label == "Financials" {
			return h.TabURL(t) + "#z-explained"
		}
	}
	return ""
}
