package views

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"creditdash/internal/policy"
	"creditdash/internal/validation"
)

// MaxReplayRows bounds the changed decisions the page lists (largest
// expected loss first); the totals count them all.
const MaxReplayRows = 100

// PolicyReplay is the replay of the team's past limit decisions under the
// validated version's policy.
type PolicyReplay struct {
	// Empty says why nothing is replayed ("" when something is).
	Empty string
	// Decisions the team approved, Replayed of them, Changed by the
	// policy: Reduced (a lower limit) and FourEyes (a second person).
	Decisions, Replayed, Changed, Reduced, FourEyes int
	// NotKept are the replayed decisions whose day kept no calculator
	// figures (no inputs saved for the account by then): only their
	// class's ceiling bounds them.
	NotKept int
	// ExpectedLoss is the difference's expected loss summed; Avoided
	// what the accounts that defaulted owed above the policy's limits,
	// × LGD.
	ExpectedLoss, Avoided, LGD string
	Rows                       []ReplayRow
	// More is how many changed decisions are not listed.
	More int
}

// ReplayRow is one decision the policy would have changed.
type ReplayRow struct {
	ID, Href, Account, Month, Approved, Class, Limit, Difference, PD, ExpectedLoss, Outcome string
	// Figures says whether the calculator's figures of the decision's
	// day were rebuilt ("rebuilt") or not kept ("not kept").
	Figures  string
	FourEyes bool
}

// NewPolicyReplay words a run's replay.
func NewPolicyReplay(run *validation.Run) PolicyReplay {
	r := PolicyReplay{Decisions: run.Decisions, Replayed: len(run.Replay), LGD: Percent(run.LGD * 100)}
	switch {
	case run.Report == nil:
		r.Empty = "Nothing to replay until the history validates: the replay prices each difference by its class's bad rate."
		return r
	case run.Decisions == 0:
		r.Empty = "The team has approved no limit yet."
		return r
	case len(run.Replay) == 0:
		r.Empty = "None of the team's " + Plural(run.Decisions, "approved limit") + " came after a month-end of the history with the account in its ledger."
		return r
	}
	var changed []*policy.Replayed
	el, avoided := 0.0, 0.0
	for i := range run.Replay {
		d := &run.Replay[i]
		if !d.Kept {
			r.NotKept++
		}
		if !d.Changed() {
			continue
		}
		r.Changed++
		if d.Reduced() {
			r.Reduced++
		}
		if d.FourEyes {
			r.FourEyes++
		}
		if !math.IsNaN(d.ExpectedLoss) {
			el += d.ExpectedLoss
		}
		avoided += d.Avoided
		changed = append(changed, d)
	}
	r.ExpectedLoss, r.Avoided = Amount(math.Round(el)), Amount(math.Round(avoided))
	slices.SortStableFunc(changed, func(x, y *policy.Replayed) int {
		return cmp.Compare(nanLow(y.ExpectedLoss), nanLow(x.ExpectedLoss))
	})
	if len(changed) > MaxReplayRows {
		r.More, changed = len(changed)-MaxReplayRows, changed[:MaxReplayRows]
	}
	classes := run.Scorecard.Policy.Scorecard.Classes
	months := run.History.Months
	for _, d := range changed {
		row := ReplayRow{ID: strconv.FormatInt(d.ID, 10), Href: "/decisions/" + strconv.FormatInt(d.ID, 10), Account: d.Account,
			Month: MonthName(months[d.Month]), Approved: Amount(d.Approved), Class: classes[d.Class].Name + " (" + strconv.Itoa(d.Score) + ")",
			Limit: Amount(d.Limit), Difference: Amount(d.Approved - d.Limit), PD: "–", ExpectedLoss: "–", FourEyes: d.FourEyes, Outcome: "no default", Figures: "not kept"}
		if d.Kept {
			row.Figures = "rebuilt"
		}
		if !math.IsNaN(d.PD) {
			row.PD, row.ExpectedLoss = Percent(d.PD*100), Amount(math.Round(d.ExpectedLoss))
		}
		if d.Defaulted {
			row.Outcome = "defaulted; " + Amount(math.Round(d.Avoided)) + " avoided"
		}
		r.Rows = append(r.Rows, row)
	}
	return r
}

// nanLow orders NaN below every number.
func nanLow(v float64) float64 {
	if math.IsNaN(v) {
		return math.Inf(-1)
	}
	return v
}
