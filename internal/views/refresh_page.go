package views

import (
	"math"
	"strconv"

	"creditdash/internal/credit"
)

// RefreshPlanRows is how many businesses the plan lists: an Ordinary
// account spends ten requests an hour, so the next fifty are hours ahead.
const RefreshPlanRows = 50

// RefreshPlanPage is /refresh-plan.
type RefreshPlanPage struct {
	Base
	// AsOf is the newest ledger's date; "" when the team has none.
	AsOf     string
	Coverage CoverageView
	Rows     []RefreshRow
	// Linked is how many linked businesses are ranked; Unlinked how many
	// accounts cannot be (no business id).
	Linked, Unlinked int
	// Budget says what the analyst has left this hour; CanSpend is false
	// when nothing is.
	Budget   string
	CanSpend bool
	// Fetched are the businesses the last click fetched, Missed how many
	// it meant to and could not (the limit, the service).
	Fetched []RefreshRow
	Missed  int
	Done    bool
	PDNote  string
}

// RefreshRow is one business of the plan.
type RefreshRow struct {
	Rank                               int
	URL, Name, Accounts, Exposure, EL  string
	Fetched, Stale, Movement, Priority string
	Never                              bool
	BusinessID                         int32
}

// NewRefreshRows words the first RefreshPlanRows candidates.
func NewRefreshRows(cs []credit.RefreshCandidate) []RefreshRow {
	out := make([]RefreshRow, 0, min(len(cs), RefreshPlanRows))
	for i, rc := range cs {
		if i == RefreshPlanRows {
			break
		}
		out = append(out, NewRefreshRow(i+1, rc))
	}
	return out
}

// NewRefreshRow words one candidate.
func NewRefreshRow(rank int, rc credit.RefreshCandidate) RefreshRow {
	id := strconv.Itoa(int(rc.BusinessID))
	r := RefreshRow{Rank: rank, URL: "/businesses/" + id, Name: Clip(rc.Name, 80), Accounts: strconv.Itoa(rc.Accounts),
		Exposure: Amount(rc.Exposure), Never: rc.Never(), BusinessID: rc.BusinessID}
	if r.Name == "" {
		r.Name = "Business " + id
	}
	r.EL = "unknown: no Risk score"
	if rc.ELOK {
		r.EL = Amount(rc.EL)
	}
	switch {
	case rc.Never():
		r.Fetched, r.Stale, r.Movement, r.Priority = "never", "never fetched", Dash, "first: nothing known"
		return r
	default:
		r.Fetched = DateTime(rc.Fetched)
		r.Stale = StaleText(rc.StaleDays)
	}
	r.Movement = Decimal(rc.Movement, 0) + " Risk points"
	r.Priority = Decimal(rc.Priority, 0)
	if !rc.ELOK {
		r.Priority = "last: no expected loss to weigh"
	}
	return r
}

// StaleText words how long ago scores were fetched, in the unit that
// shows it: "40 minutes", "5 hours", "2.5 days". A day's fraction in
// hours keeps a priority from standing beside "0.0 days".
func StaleText(days float64) string {
	switch h := days * 24; {
	case h < 1:
		return Plural(int(math.Round(h*60)), "minute")
	case h < 24:
		return Plural(int(math.Round(h)), "hour")
	}
	return Decimal(days, 1) + " days"
}

// Businesses counts businesses in words: "1 business", "3 businesses".
func Businesses(n int) string {
	if n == 1 {
		return "1 business"
	}
	return Int(int64(n)) + " businesses"
}
