package views

import "math"

// measures is one line on what the score measures, in the words of
// shared/DEMO-DATA.md.
func (k ScoreKind) measures() string {
	switch k {
	case ScoreRisk:
		return "Measures how likely the business is to go bankrupt within 12 months, as a band from 1 (most likely) to 10."
	case ScorePay:
		return "Measures how promptly the business pays its suppliers, from its trade payment record."
	case ScoreDBT:
		return "Measures how many days beyond terms the business pays, weighting each past-due bucket by its share of the total due."
	default:
		return "Measures financial stress from four balance-sheet ratios: working capital, retained earnings and EBIT to assets, equity to liabilities."
	}
}

// withheldWhy says why a score absent from every month reads as withheld.
func withheldWhy(k ScoreKind) string {
	switch k {
	case ScoreDBT:
		return "the trade payments behind the Pay score are there"
	case ScoreZ:
		return "public companies have a Z″"
	default:
		return "the service gives every business a Risk score"
	}
}

// inputsOf are the scores on the overview that feed, or move with, score
// k. Pay is computed from the trade payments DBT measures; Risk has no
// published formula, so the other scores are the page's nearest inputs.
// DBT's inputs (the aging buckets) and Z″'s (the statement ratios) are not
// on the overview: they are explained on the Payments and Financials tabs.
func inputsOf(k ScoreKind) []ScoreKind {
	switch k {
	case ScoreRisk:
		return []ScoreKind{ScorePay, ScoreDBT, ScoreZ}
	case ScorePay:
		return []ScoreKind{ScoreDBT}
	}
	return nil
}

// moveSpan is how far a score can travel, to compare moves of different
// scales: Risk and Pay 1–10, DBT 0–120 days, Z″ about −4 to 12.
func (k ScoreKind) moveSpan() float64 {
	switch k {
	case ScoreRisk, ScorePay:
		return 9
	case ScoreDBT:
		return 120
	default:
		return 16
	}
}

// inputMove is one input's change over the 12 months to the latest month.
type inputMove struct {
	kind         ScoreKind
	from, to     float64
	zonesCrossed int
	share        float64
}

// explainMove says why score k moved over the 12 months to latest: the
// largest change among its inputs on the page (most zones crossed, then
// the largest share of the input's scale), or that the page has none.
func explainMove(k ScoreKind, h scoreHistory, latest scorePoint) string {
	switch k {
	case ScoreDBT:
		return "The page has no inputs to explain it: the past-due buckets that give DBT are worked out on the Payments tab."
	case ScoreZ:
		return "The page has no inputs to explain it: the four statement ratios that give Z″ are worked out on the Financials tab."
	}
	before := latest.month - 12
	var best *inputMove
	for _, in := range inputsOf(k) {
		pts := h.of(in)
		now, ok1 := at(pts, latest.month)
		then, ok2 := at(pts, before)
		if !ok1 || !ok2 {
			continue
		}
		m := inputMove{kind: in, from: then.value, to: now.value,
			zonesCrossed: zonesCrossed(in, then.value, now.value),
			share:        math.Abs(now.value-then.value) / in.moveSpan()}
		if best == nil || m.zonesCrossed > best.zonesCrossed ||
			(m.zonesCrossed == best.zonesCrossed && m.share > best.share) {
			best = &m
		}
	}
	if best == nil {
		return "The page has no inputs to explain it: none of " + inputNames(k) + " has a value both in " +
			latest.month.String() + " and 12 months earlier."
	}
	in := best.kind
	d := best.to - best.from
	if Decimal(d, in.decimals()) == Decimal(0, in.decimals()) {
		return "None of its inputs on this page moved over 12 months (" + inputNames(k) + "); the change is not explained here."
	}
	s := "Largest input change over the same 12 months: " + in.short() + " " + Signed(d, in.decimals()) +
		" (from " + in.format(best.from) + " to " + in.format(best.to)
	if zf, zt := in.zone(best.from), in.zone(best.to); zf.Label != zt.Label {
		s += ", " + zf.Label + " to " + zt.Label
	}
	s += ")."
	if k == ScoreRisk {
		s += " The service does not publish how Risk is computed, so this is the largest move beside it, not a proven cause."
	}
	return s
}

// zonesCrossed counts the zone boundaries k crossed from a to b in k's own
// zones: Z″ has three, coloured at levels 1, 3 and 5, so one step there is
// two levels, where Pay and DBT step one level a zone.
func zonesCrossed(k ScoreKind, a, b float64) int {
	steps := int(math.Abs(float64(k.zone(b).Level - k.zone(a).Level)))
	if k == ScoreZ {
		return steps / 2
	}
	return steps
}

// inputNames lists the inputs of k: "Pay, DBT or Z″".
func inputNames(k ScoreKind) string {
	ins := inputsOf(k)
	s := ""
	for i, in := range ins {
		switch {
		case i == 0:
		case i == len(ins)-1:
			s += " or "
		default:
			s += ", "
		}
		s += in.short()
	}
	return s
}
