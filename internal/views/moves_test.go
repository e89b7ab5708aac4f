package views

import (
	"testing"

	"creditdash/internal/upstream"
)

func f(v float64) upstream.Num[float64] { return upstream.Some(v) }

// hist builds a history: each business is a name and its scores keyed by
// month of 2026 (nil means the month is absent).
func hist(kind string, rows ...upstream.PortfolioBusinessScores) upstream.PortfolioScoreHistory {
	return upstream.PortfolioScoreHistory{TotalResults: len(rows), ScoreType: kind, Businesses: rows}
}

func biz(id int32, name string, months map[int]float64) upstream.PortfolioBusinessScores {
	b := upstream.PortfolioBusinessScores{BusinessID: id, BusinessName: name}
	for m := 1; m <= 12; m++ {
		if v, ok := months[m]; ok {
			b.Scores = append(b.Scores, upstream.MonthlyScore{Year: 2026, Month: m, Score: f(v)})
		}
	}
	return b
}

func TestBiggestMovesOrdersDropsFirstLargestFirst(t *testing.T) {
	pay := hist("PayScore",
		biz(1, "Alpha", map[int]float64{9: 7, 10: 4}),   // -3 of 9
		biz(2, "Bravo", map[int]float64{9: 3, 10: 7}),   // +4 of 9
		biz(3, "Charlie", map[int]float64{9: 5, 10: 5}), // no move
		biz(4, "Delta", map[int]float64{9: 8, 10: 7}),   // -1 of 9
		biz(5, "Echo", map[int]float64{8: 6}),           // nothing in the latest month
	)
	z := hist("ZScore",
		biz(6, "Foxtrot", map[int]float64{7: 3.1, 10: 0.9}),   // -2.2 of 16, previous value a quarter back
		biz(7, "Golf", map[int]float64{6: 1.0, 10: 3.0}),      // previous value too old: no move
		biz(8, "Hotel", map[int]float64{9: 2.001, 10: 2.004}), // rounds to the same 2.00: no move
	)
	got := BiggestMoves(pay, z, 10)
	want := []struct {
		name, score, old, new, change string
		drop                          bool
	}{
		{"Alpha", "Pay score", "7", "4", "-3", true},
		{"Foxtrot", "Z″-Score", "3.10", "0.90", "-2.20", true},
		{"Delta", "Pay score", "8", "7", "-1", true},
		{"Bravo", "Pay score", "3", "7", "+4", false},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d moves %+v, want %d", len(got), got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.name || g.Score != w.score || g.Old != w.old || g.New != w.new || g.Change != w.change || g.Drop != w.drop {
			t.Errorf("move %d = %s %s %s->%s (%s, drop %v), want %s %s %s->%s (%s, drop %v)", i,
				g.Name, g.Score, g.Old, g.New, g.Change, g.Drop, w.name, w.score, w.old, w.new, w.change, w.drop)
		}
	}
	if got[0].URL != "/businesses/1" || got[0].FromMonth != "Sep 2026" || got[0].ToMonth != "Oct 2026" {
		t.Errorf("Alpha: URL %q months %s to %s", got[0].URL, got[0].FromMonth, got[0].ToMonth)
	}
	if got[0].OldZone.Label != "moderate" || got[0].NewZone.Label != "high" || got[0].NewZone.Class() != "zone-2" {
		t.Errorf("Alpha zones: %+v -> %+v", got[0].OldZone, got[0].NewZone)
	}
	if got[1].FromMonth != "Jul 2026" || got[1].NewZone.Label != "distress" {
		t.Errorf("Foxtrot: from %s zone %+v", got[1].FromMonth, got[1].NewZone)
	}
}

func TestBiggestMovesKeepsTheLargestWithinTheLimit(t *testing.T) {
	pay := hist("PayScore",
		biz(1, "Small drop", map[int]float64{9: 6, 10: 5}),
		biz(2, "Big rise", map[int]float64{9: 2, 10: 9}),
		biz(3, "Mid drop", map[int]float64{9: 9, 10: 6}),
	)
	got := BiggestMoves(pay, upstream.PortfolioScoreHistory{}, 2)
	if len(got) != 2 || got[0].Name != "Mid drop" || got[1].Name != "Big rise" {
		t.Fatalf("got %+v, want the two largest (Mid drop, then Big rise): drops first", got)
	}
}

func TestBiggestMovesOfNothing(t *testing.T) {
	if got := BiggestMoves(upstream.PortfolioScoreHistory{}, upstream.PortfolioScoreHistory{}, 10); len(got) != 0 {
		t.Errorf("got %+v from empty histories", got)
	}
	// Null scores and impossible months are not data.
	odd := hist("PayScore", upstream.PortfolioBusinessScores{BusinessID: 1, BusinessName: "Odd", Scores: []upstream.MonthlyScore{
		{Year: 2026, Month: 9, Score: f(5)}, {Year: 2026, Month: 10, Score: upstream.Num[float64]{}}, {Year: 2026, Month: 13, Score: f(1)},
	}})
	if got := BiggestMoves(odd, upstream.PortfolioScoreHistory{}, 10); len(got) != 0 {
		t.Errorf("got %+v, want no move when the latest month is null", got)
	}
}

// Z″ is quarterly: in the second and third month of a quarter the month
// before repeats the latest value, so the move is from the quarter before.
func TestBiggestMovesZWithinAQuarter(t *testing.T) {
	for _, c := range []struct {
		months map[int]float64
		from   string
	}{
		{map[int]float64{7: 3.1, 8: 3.1, 9: 3.1, 10: 0.9, 11: 0.9}, "Sep 2026"},          // repeated, as of November
		{map[int]float64{7: 3.1, 8: 3.1, 9: 3.1, 10: 0.9, 11: 0.9, 12: 0.9}, "Sep 2026"}, // as of December
		{map[int]float64{9: 3.1, 12: 0.9}, "Sep 2026"},                                   // quarter ends only
		{map[int]float64{7: 3.1, 11: 0.9}, "Jul 2026"},                                   // left empty
	} {
		got := BiggestMoves(hist("PayScore"), hist("ZScore", biz(6, "Foxtrot", c.months)), 10)
		if len(got) != 1 || got[0].Old != "3.10" || got[0].New != "0.90" || got[0].FromMonth != c.from {
			t.Errorf("Z″ %v: moves %+v, want 3.10 to 0.90 from %s", c.months, got, c.from)
		}
	}
	// Within one quarter nothing moved: no move, even as the months repeat.
	if got := BiggestMoves(hist("PayScore"), hist("ZScore", biz(6, "Foxtrot", map[int]float64{7: 2, 8: 2, 9: 2, 10: 2, 11: 2})), 10); len(got) != 0 {
		t.Errorf("a steady Z″: moves %+v, want none", got)
	}
}

// A business the service sent without a name is named by its id, never an
// empty link.
func TestBiggestMovesNameless(t *testing.T) {
	got := BiggestMoves(hist("PayScore", biz(7, "  ", map[int]float64{9: 7, 10: 4})), hist("ZScore"), 10)
	if len(got) != 1 || got[0].Name != "Business 7" {
		t.Errorf("moves %+v, want one named Business 7", got)
	}
}
