package credit

import (
	"math"
	"strconv"
	"strings"
)

// bandRanges are each Risk band's 12-month probability of bankruptcy
// (DEMO-DATA.md, the service's documented table), low and high, as
// fractions; index is the band.
var bandRanges = [11][2]float64{
	1:  {0.0999, 0.50},
	2:  {0.0400, 0.0999},
	3:  {0.0210, 0.0400},
	4:  {0.0140, 0.0210},
	5:  {0.0087, 0.0140},
	6:  {0.0055, 0.0087},
	7:  {0.0034, 0.0055},
	8:  {0.0027, 0.0034},
	9:  {0.0012, 0.0027},
	10: {0.0000, 0.0012},
}

// PDAssumption is how every page that shows expected loss states it.
const PDAssumption = "PD is the midpoint of the Risk band's 12-month range of bankruptcy probability (band 5: 0.87–1.40 % gives 1.135 %); expected loss = balance owed × PD."

// Band is a Risk score as its band, 0 when it is not one (1–10).
func Band(risk float64) int {
	b := int(math.Round(risk))
	if math.IsNaN(risk) || b < 1 || b > 10 {
		return 0
	}
	return b
}

// PD is the band's probability of default: the midpoint of its range.
// ok is false for no band.
func PD(band int) (pd float64, ok bool) {
	if band < 1 || band > 10 {
		return 0, false
	}
	r := bandRanges[band]
	return (r[0] + r[1]) / 2, true
}

// PDRange is the band's range, for "0.87–1.40 %".
func PDRange(band int) (lo, hi float64) {
	if band < 1 || band > 10 {
		return 0, 0
	}
	return bandRanges[band][0], bandRanges[band][1]
}

// Exposure is what a balance puts at risk: a credit balance (the team owes
// the customer) puts nothing.
func Exposure(balance float64) float64 { return max(balance, 0) }

// ExpectedLoss is exposure × PD.
func ExpectedLoss(balance, pd float64) float64 { return Exposure(balance) * pd }

// Utilization is balance / limit; ok is false without a positive limit.
func Utilization(balance float64, limit *float64) (float64, bool) {
	if limit == nil || *limit <= 0 {
		return 0, false
	}
	return balance / *limit, true
}

// money writes a whole amount with thousands separators, as rationale
// lines quote it.
func money(v float64) string {
	neg := v < 0
	s := strconv.FormatFloat(math.Abs(math.Round(v)), 'f', 0, 64)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "−" + b.String()
	}
	return b.String()
}

// percent writes a fraction as a percentage with up to three decimals.
func percent(f float64) string {
	s := strconv.FormatFloat(f*100, 'f', 3, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + " %"
}
