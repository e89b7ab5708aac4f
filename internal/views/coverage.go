package views

import (
	"cmp"
	"math"
	"slices"

	"creditdash/internal/upstream"
)

// Coverage says whether a score is on the page and, when it is not, why.
type Coverage int

// The coverage of a score. The rule that picks one is scoreCoverage's.
const (
	// CoverageUnknown: missing, and nothing on the page says why.
	CoverageUnknown Coverage = iota
	// CoveragePresent: the latest month of the frame has a value.
	CoveragePresent
	// CoverageNotReported: reported earlier in the frame, not this month.
	CoverageNotReported
	// CoverageWithheld: the service has the score but the account's access
	// model (API-Only) leaves it out.
	CoverageWithheld
	// CoveragePrivate: a Z″ is not computed for private companies.
	CoveragePrivate
	// CoverageThinFile: too few trade lines (a thin trade file) for a Pay
	// score, or no trade payments at all for a DBT.
	CoverageThinFile
)

// Label is the badge's words; every badge has words, never colour alone.
func (c Coverage) Label() string {
	switch c {
	case CoveragePresent:
		return "up to date"
	case CoverageNotReported:
		return "not reported this month"
	case CoverageWithheld:
		return "withheld by the access model"
	case CoveragePrivate:
		return "not computed for private companies"
	case CoverageThinFile:
		return "missing: thin trade file"
	default:
		return "missing: reason unknown"
	}
}

// Class is the badge's CSS classes.
func (c Coverage) Class() string {
	switch c {
	case CoveragePresent:
		return "badge coverage coverage-present"
	case CoverageNotReported:
		return "badge coverage coverage-late"
	case CoverageWithheld:
		return "badge coverage coverage-withheld"
	default:
		return "badge coverage coverage-missing"
	}
}

// scoreCoverage decides a score's coverage from what the overview has: the
// score history of the frame and whether the identification says the
// business is public (public is nil when unknown). The rule, in order:
//
//  1. The latest month of the frame has a value: present.
//  2. A value earlier in the frame but none in the latest month: not
//     reported this month (the card names the last one; Z″ is quarterly).
//  3. No rows at all in the frame: unknown.
//  4. Never a Pay score in the frame: thin trade file, the one reason
//     shared/DEMO-DATA.md gives for a missing Pay score.
//  5. Never a DBT and never a Pay score: thin trade file (no trade
//     payments reported).
//  6. Never a Z″ and the business is private: not computed for private
//     companies (Z″ needs published statements).
//  7. Never a value while another score of the frame has one, for a score
//     this kind of business has: withheld by the access model. The
//     contract returns a withheld data point as absent or null, so a
//     score missing from every month of a scored business is how
//     withholding looks: Risk (every business has one), DBT beside a Pay
//     score (the trade payments exist), Z″ of a public company.
//  8. Otherwise (nothing scored at all, or Z″ when nobody said whether the
//     business is public): unknown.
func scoreCoverage(k ScoreKind, h scoreHistory, public *bool) Coverage {
	pts := h.of(k)
	if len(pts) == 0 {
		return CoverageUnknown
	}
	if pts[len(pts)-1].ok {
		return CoveragePresent
	}
	if _, ever := lastReported(pts); ever {
		return CoverageNotReported
	}
	everScored := func(o ScoreKind) bool { _, ok := lastReported(h.of(o)); return ok }
	switch {
	case k == ScorePay:
		return CoverageThinFile
	case k == ScoreDBT && !everScored(ScorePay):
		return CoverageThinFile
	case k == ScoreZ && public != nil && !*public:
		return CoveragePrivate
	case k == ScoreZ && public == nil:
		return CoverageUnknown
	}
	for _, o := range scoreKinds {
		if o != k && everScored(o) {
			return CoverageWithheld
		}
	}
	return CoverageUnknown
}

// CoverageBadge is a score's coverage as the page shows it.
type CoverageBadge struct {
	Coverage Coverage
	// Score names the score ("Risk"), for the badge's accessible text.
	Score string
}

// Label is "Risk: up to date" (plain words, not "present").
func (b CoverageBadge) Label() string { return b.Score + ": " + b.Coverage.Label() }

// Class is the badge's CSS classes.
func (b CoverageBadge) Class() string { return b.Coverage.Class() }

// RiskHistoryCoverage is the coverage of the average risk history, judged
// against the month the score cards call latest (asOf, "" when the score
// history had no rows): present when that month (or, without one, any
// month) has an average; not reported this month when only earlier months
// have one; otherwise what the Risk card says about the Risk score.
func RiskHistoryCoverage(rows []upstream.RiskHistoryRow, cards []ScoreCard) CoverageBadge {
	b := CoverageBadge{Score: "Average risk"}
	var months []monthIndex
	for _, r := range rows {
		if r.AverageRiskScore.OK && !math.IsNaN(r.AverageRiskScore.V) {
			months = append(months, monthIndexOf(r.Year, r.Month))
		}
	}
	var risk ScoreCard
	if int(ScoreRisk) < len(cards) {
		risk = cards[ScoreRisk]
	}
	if len(months) == 0 {
		b.Coverage = risk.Coverage
		if b.Coverage == CoveragePresent || b.Coverage == CoverageNotReported {
			b.Coverage = CoverageUnknown
		}
		return b
	}
	latest := slices.MaxFunc(months, cmp.Compare[monthIndex])
	b.Coverage = CoveragePresent
	if risk.asOf != 0 && latest < risk.asOf {
		b.Coverage = CoverageNotReported
	}
	return b
}
