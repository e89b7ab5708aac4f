package simulator

import (
	"strconv"
	"strings"
)

// PeerAnalysis filters. The codes are the public documentation's; what each
// one selects is ours (CONTRACT-CHOICES leaves it open):
//
//   - RiskLevelFilter on the latest Risk score: NS none (default); FS the
//     business's own score; F1-F10 that score; FH high risk (1-4), FM
//     moderate (5-7), FL low (8-10); H1-H5 within that many points of the
//     business's score.
//   - ZScoreFilter on the latest Z-Score: N none (default); S the business's
//     own band; H above 2.60, M 1.10-2.60, L below 1.10 (DEMO-DATA's safe,
//     grey and distress zones).
//   - PayScoreFilter on the latest Pay score: N, S as above; H 8-10, M 5-7,
//     L 1-4.
//   - DBTFilter on the latest DBT: N none (default); S the business's own
//     band of the nine below; P prompt (0-5), W slow (6-15), D delinquent
//     (over 15); 1-9 the bands 0, 1-5, 6-10, 11-15, 16-30, 31-60, 61-90,
//     91-120, over 120.
//
// A peer without the score never passes a filter other than none; the
// business itself always stays in.

// scoreMatch keeps a peer by comparing its score with the business's; own
// or peer is nil when that business has no such score.
type scoreMatch func(own, peer *int) bool

// anyScore is the filter of none.
func anyScore(_, _ *int) bool { return true }

// inRange keeps peers whose score is in lo..hi.
func inRange(lo, hi int) scoreMatch {
	return func(_, peer *int) bool { return peer != nil && *peer >= lo && *peer <= hi }
}

// sameBand keeps peers in the business's band; band maps a score to its band.
func sameBand(band func(int) int) scoreMatch {
	return func(own, peer *int) bool { return own != nil && peer != nil && band(*own) == band(*peer) }
}

// parseRiskFilter reads RiskLevelFilter; ok is false for an unknown code.
func parseRiskFilter(raw string) (m scoreMatch, ok bool) {
	code := strings.ToUpper(raw)
	switch code {
	case "", "NS":
		return anyScore, true
	case "FS":
		return sameBand(func(n int) int { return n }), true
	case "FH":
		return inRange(1, 4), true
	case "FM":
		return inRange(5, 7), true
	case "FL":
		return inRange(8, 10), true
	}
	if n, err := strconv.Atoi(code[1:]); err == nil && strconv.Itoa(n) == code[1:] {
		switch {
		case code[0] == 'F' && n >= 1 && n <= 10:
			return inRange(n, n), true
		case code[0] == 'H' && n >= 1 && n <= 5:
			return func(own, peer *int) bool {
				return own != nil && peer != nil && max(*own-*peer, *peer-*own) <= n
			}, true
		}
	}
	return nil, false
}

// parseBandFilter reads ZScoreFilter or PayScoreFilter over scores that
// band maps to 1 (L), 2 (M) or 3 (H).
func parseBandFilter(raw string, band func(int) int) (scoreMatch, bool) {
	switch strings.ToUpper(raw) {
	case "", "N":
		return anyScore, true
	case "S":
		return sameBand(band), true
	}
	want := strings.Index("LMH", strings.ToUpper(raw)) + 1
	if want == 0 || len(raw) != 1 {
		return nil, false
	}
	return func(_, peer *int) bool { return peer != nil && band(*peer) == want }, true
}

// payBand is 1 (L) for Pay 1-4, 2 (M) for 5-7, 3 (H) for 8-10.
func payBand(pay int) int {
	switch {
	case pay <= 4:
		return 1
	case pay <= 7:
		return 2
	}
	return 3
}

// zBand works on the Z-Score in hundredths (see latestScores): 1 (L) below
// 1.10, 2 (M) up to 2.60, 3 (H) above.
func zBand(z100 int) int {
	switch {
	case z100 < 110:
		return 1
	case z100 <= 260:
		return 2
	}
	return 3
}

// dbtBandEdges are the upper ends of DBT bands 1-8; band 9 is above 120.
var dbtBandEdges = [8]int{0, 5, 10, 15, 30, 60, 90, 120}

func dbtBand(dbt int) int {
	for i, hi := range dbtBandEdges {
		if dbt <= hi {
			return i + 1
		}
	}
	return 9
}

// parseDBTFilter reads DBTFilter.
func parseDBTFilter(raw string) (scoreMatch, bool) {
	switch strings.ToUpper(raw) {
	case "", "N":
		return anyScore, true
	case "S":
		return sameBand(dbtBand), true
	case "P":
		return inRange(0, 5), true
	case "W":
		return inRange(6, 15), true
	case "D":
		return inRange(16, maxInt32), true
	}
	if len(raw) == 1 && raw[0] >= '1' && raw[0] <= '9' {
		band := int(raw[0] - '0')
		return func(_, peer *int) bool { return peer != nil && dbtBand(*peer) == band }, true
	}
	return nil, false
}
