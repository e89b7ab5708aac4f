package views

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// MaxMoves is how many score moves the home page lists.
const MaxMoves = 10

// MovesCompared is how many businesses (by name) the home page compares for
// score moves: a page the service builds in one answer.
const MovesCompared = 1000

// moveLookback is how many months the previous value is looked for: Pay
// scores are monthly, so within the three months before the latest; Z″
// scores are quarterly (repeated or left empty within the quarter), so
// within the quarter before the latest month's (see firstLookback). It is
// the rules' lookback, so a move listed is the one a rule reads.
const moveLookback = credit.PrevLookback

// firstLookback is how many months back the previous value may start: the
// month before for Pay; for Z″ the last month of the quarter before, as a
// month earlier in the same quarter repeats the latest value (in November,
// September and not October).
func (k PortfolioScore) firstLookback(latest monthIndex) int {
	if k == PortfolioZ {
		return (latest.month()-1)%3 + 1
	}
	return 1
}

// PortfolioScore is a score the portfolio histories carry: Pay or Z″.
type PortfolioScore string

// The portfolio scores, as the scores page's score parameter spells them.
const (
	PortfolioPay PortfolioScore = "pay"
	PortfolioZ   PortfolioScore = "z"
)

// Score is the store's name of the score.
func (k PortfolioScore) Score() store.Score {
	if k == PortfolioZ {
		return store.ScoreZ
	}
	return store.ScorePay
}

// Name is how pages name the score.
func (k PortfolioScore) Name() string {
	if k == PortfolioZ {
		return "Z″-Score"
	}
	return "Pay score"
}

// scale is the width of the score's range, so that moves of different
// scores compare: Pay runs 1–10, Z″ about −4 to 12.
func (k PortfolioScore) scale() float64 {
	if k == PortfolioZ {
		return 16
	}
	return 9
}

// Zone places a value of the score in its zone.
func (k PortfolioScore) Zone(v float64) Zone {
	if k == PortfolioZ {
		return ZScoreZone(v)
	}
	return RiskZone(int(math.Round(v)))
}

// Format writes a value as the service means it: Pay as a whole number, Z″
// with two decimals.
func (k PortfolioScore) Format(v float64) string {
	if k == PortfolioZ {
		return Decimal(v, 2)
	}
	return strconv.Itoa(int(math.Round(v)))
}

// signed writes a change with its sign.
func (k PortfolioScore) signed(d float64) string {
	if k == PortfolioZ {
		return Signed(d, 2)
	}
	return Signed(math.Round(d), 0)
}

// Move is one business whose score changed between its two latest values.
type Move struct {
	Name, URL  string
	Score      string // "Pay score" or "Z″-Score"
	Old, New   string
	OldZone    Zone
	NewZone    Zone
	Change     string // signed: "-3", "+0.42"
	Drop       bool
	FromMonth  string // "Sep 2026"
	ToMonth    string
	normalised float64 // change as a share of the score's range
}

// BiggestMoves finds, in the Pay and Z″ histories of the portfolio, each
// business's change from its previous value (at most a quarter earlier) to
// its value in the latest month of the answer. It keeps the limit largest
// changes (relative to each score's range) and lists drops first, largest
// first, then rises. A business without a value in the latest month has no
// move: an old value is never passed off as current.
func BiggestMoves(pay, z upstream.PortfolioScoreHistory, limit int) []Move {
	moves := append(scoreMoves(PortfolioPay, pay), scoreMoves(PortfolioZ, z)...)
	slices.SortStableFunc(moves, func(a, b Move) int {
		return cmp.Or(cmp.Compare(math.Abs(b.normalised), math.Abs(a.normalised)), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Score, b.Score))
	})
	if len(moves) > limit {
		moves = moves[:limit]
	}
	slices.SortStableFunc(moves, func(a, b Move) int {
		if a.Drop != b.Drop {
			if a.Drop {
				return -1
			}
			return 1
		}
		return cmp.Compare(math.Abs(b.normalised), math.Abs(a.normalised))
	})
	return moves
}

func scoreMoves(kind PortfolioScore, h upstream.PortfolioScoreHistory) []Move {
	latest, ok := latestMonth(h)
	if !ok {
		return nil
	}
	var out []Move
	var byMonth monthScores
	for _, b := range h.Businesses {
		byMonth = monthValues(byMonth, b.Scores)
		now, ok := byMonth.at(latest)
		if !ok {
			continue
		}
		first := kind.firstLookback(latest)
		for back := first; back < first+moveLookback; back++ {
			prev, ok := byMonth.at(latest - monthIndex(back))
			if !ok {
				continue
			}
			if d := now - prev; d != 0 && kind.Format(now) != kind.Format(prev) {
				out = append(out, Move{
					Name: businessLabel(b.BusinessName, b.BusinessID), URL: reportURL(b.BusinessID), Score: kind.Name(),
					Old: kind.Format(prev), New: kind.Format(now),
					OldZone: kind.Zone(prev), NewZone: kind.Zone(now),
					Change: kind.signed(d), Drop: d < 0,
					FromMonth: (latest - monthIndex(back)).String(), ToMonth: latest.String(),
					normalised: d / kind.scale(),
				})
			}
			break
		}
	}
	return out
}

// reportURL is the report page of a business.
func reportURL(id int32) string {
	return "/businesses/" + strconv.FormatInt(int64(id), 10)
}
