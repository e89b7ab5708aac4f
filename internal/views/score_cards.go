package views

import (
	"creditdash/internal/upstream"
)

// ScoreCard is the latest value of one score with its zone, its change over
// 12 months, and, when it is missing, why.
type ScoreCard struct {
	Name  string
	Scale string
	// Value is the latest value, or "" when the service had none.
	Value string
	Zone  Zone
	// AsOf is the month of the latest row of the time frame.
	AsOf string
	// Change is the move over 12 months ("-5 since Oct 2025, from 7"), or a
	// sentence saying why there is none.
	Change string
	// Trend is "better", "worse" or "no change"; "" without a change.
	Trend string
	// Band is the 12-month bankruptcy probability of a Risk or Pay value.
	Band string
	// Missing says why there is no value ("no score: thin trade file").
	Missing string
	// LastReported names the newest earlier value when the latest is missing.
	LastReported string
	// Coverage says whether the score is present and, if not, why (see
	// scoreCoverage for the rule).
	Coverage Coverage
	// Measures is one line on what the score measures.
	Measures string
	// Why names the largest change among the inputs the page has, or says
	// the page has none (see explainMove).
	Why string
	// asOf is the latest month of the frame, 0 without rows.
	asOf monthIndex
	// short is the score's name inside sentences ("Risk").
	short string
}

// BandText is the band's 12-month bankruptcy probability, or says the
// service publishes none for this score's bands.
func (c ScoreCard) BandText() string {
	if c.Band != "" {
		return c.Band
	}
	return "The service publishes no bankruptcy probability for this band."
}

// CoverageBadge is the card's coverage as a badge.
func (c ScoreCard) CoverageBadge() CoverageBadge {
	return CoverageBadge{Coverage: c.Coverage, Score: c.short}
}

// Class is the card's CSS class: its zone, or zone-none when missing.
func (c ScoreCard) Class() string { return "card score-card " + c.Zone.Class() }

// ScoreCards builds the four cards from the score history of the chosen
// time frame (the latest month of the frame counts as "latest"). public is
// nil when the service did not say whether the business is public.
func ScoreCards(rows []upstream.CreditScoreHistoryRow, public *bool) []ScoreCard {
	h := newScoreHistory(rows)
	cards := make([]ScoreCard, 0, len(scoreKinds))
	for _, k := range scoreKinds {
		cards = append(cards, scoreCard(k, h, public))
	}
	return cards
}

func scoreCard(k ScoreKind, h scoreHistory, public *bool) ScoreCard {
	c := ScoreCard{Name: k.Name(), Scale: k.Scale(), short: k.short(), Measures: k.measures(),
		Coverage: scoreCoverage(k, h, public)}
	pts := h.of(k)
	if len(pts) == 0 {
		c.Missing = "no history in this time frame"
		return c
	}
	latest := pts[len(pts)-1]
	c.AsOf, c.asOf = latest.month.String(), latest.month
	if !latest.ok {
		c.Missing = missingReason(k, pts, public)
		if c.Coverage == CoverageWithheld {
			c.Missing = "no score: not available with this account's access model (API-Only); " + withheldWhy(k)
		}
		if last, ok := lastReported(pts); ok {
			c.LastReported = "last reported " + k.format(last.value) + " (" + k.zone(last.value).Label + ") in " + last.month.String()
		}
		return c
	}
	c.Value = k.format(latest.value)
	c.Zone = k.zone(latest.value)
	if k == ScoreRisk || k == ScorePay {
		c.Band = bandText(k, int(latest.value))
	}
	c.Change, c.Trend = change(k, pts, latest)
	switch c.Trend {
	case "":
		c.Why = "No 12-month change to explain."
	case "no change":
		c.Why = "It did not move over 12 months."
	default:
		c.Why = explainMove(k, h, latest)
	}
	return c
}

// missingReason says why the latest value is missing, as far as the data
// shows it: a score never reported in the frame has a reason per score; a
// score that stopped is missing since its last report.
func missingReason(k ScoreKind, pts []scorePoint, public *bool) string {
	last, ever := lastReported(pts)
	if ever {
		if k == ScoreZ {
			// Z-Scores come from quarterly filings: name the quarters.
			return "missing for the latest quarters: " + missingQuarters(pts, last.month)
		}
		return "missing since " + (last.month + 1).String()
	}
	switch k {
	case ScorePay:
		// Pay scores are computed from trade lines; without enough of
		// them there is no score (a thin trade file).
		return "no score: thin trade file"
	case ScoreDBT:
		return "no score: no trade payments reported"
	case ScoreZ:
		if public != nil && !*public {
			return "no score: private companies have no Z-Score (it needs published statements)"
		}
		return "no score reported"
	default:
		return "no score reported"
	}
}

// change is the move from 12 months before the latest month to it.
func change(k ScoreKind, pts []scorePoint, latest scorePoint) (text, trend string) {
	before := latest.month - 12
	prev, ok := at(pts, before)
	if !ok {
		if len(pts) > 0 && pts[0].month > before {
			return "no change shown: the time frame is shorter than 12 months", ""
		}
		return "no value 12 months earlier (" + before.String() + ")", ""
	}
	d := latest.value - prev.value
	switch {
	case Decimal(d, k.decimals()) == Decimal(0, k.decimals()):
		trend = "no change"
	case (d > 0) == k.higherIsBetter():
		trend = "better"
	default:
		trend = "worse"
	}
	return Signed(d, k.decimals()) + " over 12 months (from " + k.format(prev.value) + " in " + before.String() + ")", trend
}

// bandText is the bankruptcy-probability band of a Risk or Pay value; for
// Pay the Risk table is used by assumption, and the text says so.
func bandText(k ScoreKind, score int) string {
	if score < 1 || score > 10 || (k != ScoreRisk && k != ScorePay) {
		return ""
	}
	return bandTexts[k][score]
}

// bandTexts are bandText's sentences, made once: every month of a Risk or
// Pay chart's tooltips names one.
var bandTexts = func() (out [ScorePay + 1][11]string) {
	for score := 1; score <= 10; score++ {
		s := RiskProbability(score) + " chance of bankruptcy within 12 months"
		out[ScoreRisk][score], out[ScorePay][score] = s, s+" (Risk table, assumed to apply to Pay)"
	}
	return out
}()
