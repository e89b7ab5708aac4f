package views

import (
	"math"
	"strings"
	"testing"

	"creditdash/internal/upstream"
)

// stressHistory builds a portfolio history from 2025-01 on; nil is a month the
// business has no score.
func stressHistory(rows map[int32][]upstream.Num[float64]) upstream.PortfolioScoreHistory {
	var h upstream.PortfolioScoreHistory
	for id, vals := range rows {
		b := upstream.PortfolioBusinessScores{BusinessID: id, BusinessName: "B" + Int(int64(id))}
		for i, v := range vals {
			b.Scores = append(b.Scores, upstream.MonthlyScore{Year: 2025, Month: i + 1, Score: v})
		}
		h.Businesses = append(h.Businesses, b)
	}
	return h
}

func TestFolderStress(t *testing.T) {
	f := func(v float64) upstream.Num[float64] { return upstream.Some(v) }
	folders := []upstream.Folder{{FolderID: 1, FolderName: "Retail"}, {FolderID: 2, FolderName: "Empty"}, {FolderID: 3, FolderName: "Unscored"}}
	members := []upstream.PortfolioBusiness{
		{BusinessID: 1, FolderID: 1}, {BusinessID: 2, FolderID: 1}, {BusinessID: 3, FolderID: 1}, {BusinessID: 4, FolderID: 1},
		{BusinessID: 4, FolderID: 1}, // listed twice: counted once
		{BusinessID: 5, FolderID: 3},
		{BusinessID: 9, FolderID: 0}, // no folder: counted nowhere
	}
	// Months 2025-01 .. 2025-05; 2025-03 has no Pay score at all (a gap).
	pay := stressHistory(map[int32][]upstream.Num[float64]{
		1: {f(8), f(8), upstream.Num[float64]{}, f(3), f(3)},
		2: {f(4), f(5), upstream.Num[float64]{}, f(2), f(2)},
		3: {f(9), f(9), upstream.Num[float64]{}, f(9), f(1)},
		// 4 has no Pay score: thin trade file.
	})
	z := stressHistory(map[int32][]upstream.Num[float64]{
		1: {f(3), f(3), f(1), f(1), f(1)},
		2: {f(2), f(2), f(2), upstream.Num[float64]{}, f(0.5)},
		4: {f(4), f(4), f(4), f(4), f(4)},
		// 3 has no Z″: private company.
	})
	v, err := FolderStress(folders, members, pay, z)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Folders) != 3 {
		t.Fatalf("%d folders, want 3", len(v.Folders))
	}
	retail := v.Folders[0]
	if retail.Members != 4 {
		t.Errorf("Retail members %d, want 4", retail.Members)
	}
	// Shares: 33, 0, gap, 67, 100. Rises: 2025-04 (+67 against 2025-02, over
	// the gap) and 2025-05 (+33): the gap does not hide the biggest rise.
	if want := "the share in Pay zones 1–4 rose most in 2025-04, from 0 % to 67 % (against 2025-02, the last month before it with Pay scores)."; retail.Rise != want {
		t.Errorf("Retail rise\n got %q\nwant %q", retail.Rise, want)
	}
	if want := "4 businesses; 1 without a Pay score (thin trade file) left out of the share; 1 without a Z″ (private company) left out of the median."; retail.Note != want {
		t.Errorf("Retail note %q", retail.Note)
	}
	if v.Folders[1].Rise != "no businesses in this folder." || v.Folders[1].Members != 0 {
		t.Errorf("empty folder: %+v", v.Folders[1])
	}
	if !strings.Contains(v.Folders[2].Rise, "has a Pay score or a Z″") {
		t.Errorf("unscored folder: %q", v.Folders[2].Rise)
	}
	if !v.Drawn || v.Share.Chart.ID != "chart-stress-share" || v.MedianZ.Chart.ID != "chart-stress-z" {
		t.Fatalf("charts: drawn %v, %q %q", v.Drawn, v.Share.Chart.ID, v.MedianZ.Chart.ID)
	}
	// Only the folder with scores is drawn and tabled.
	if got := strings.Join(v.Share.Table.Head, ","); got != "Month,Retail" {
		t.Errorf("share table head %q", got)
	}
	wantShare := []string{"33 % (1 of 3)", "0 % (0 of 3)", Dash, "67 % (2 of 3)", "100 % (3 of 3)"}
	for i, w := range wantShare {
		if got := v.Share.Table.Rows[i].Cells[1].Text; got != w {
			t.Errorf("share %s = %q, want %q", v.Share.Table.Rows[i].Cells[0].Text, got, w)
		}
	}
	// Medians: of {3,2,4}, {3,2,4}, {1,2,4}, {1,4} (mean of the two), {1,0.5,4}.
	wantZ := []string{"3.00 · safe (3)", "3.00 · safe (3)", "2.00 · grey (3)", "2.50 · grey (2)", "1.00 · distress (3)"}
	for i, w := range wantZ {
		if got := v.MedianZ.Table.Rows[i].Cells[1].Text; got != w {
			t.Errorf("median Z″ %s = %q, want %q", v.MedianZ.Table.Rows[i].Cells[0].Text, got, w)
		}
	}
	if v.Share.Table.Rows[0].Cells[0].Text != "2025-01" || len(v.Share.Table.Rows) != 5 {
		t.Errorf("months: first %q, %d rows", v.Share.Table.Rows[0].Cells[0].Text, len(v.Share.Table.Rows))
	}
}

func TestBiggestRise(t *testing.T) {
	months := []monthIndex{monthIndexOf(2025, 1), monthIndexOf(2025, 2), monthIndexOf(2025, 3), monthIndexOf(2025, 4)}
	nan := math.NaN()
	tests := []struct {
		name  string
		share []float64
		want  string
	}{
		{"rise", []float64{12, 12, 25, 20}, "the share in Pay zones 1–4 rose most in 2025-03, from 12 % to 25 %."},
		{"tie goes to the later month", []float64{10, 20, 10, 20}, "the share in Pay zones 1–4 rose most in 2025-04, from 10 % to 20 %."},
		{"a rise within a whole per cent", []float64{13.26, 13.47, 13, 12}, "the share in Pay zones 1–4 rose most in 2025-02, from 13.3 % to 13.5 %."},
		{"never rose", []float64{30, 20, 20, 10}, "the share in Pay zones 1–4 never rose from one month to the next."},
		{"one month", []float64{nan, 40, nan, nan}, "only one month has Pay scores, so no rise can be measured."},
		{"no months", []float64{nan, nan, nan, nan}, "no business has a Pay score in these months, so no share can be given."},
	}
	for _, tt := range tests {
		if got := biggestRise(months, folderSeries{share: tt.share}); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{7}, 7}} {
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if !math.IsNaN(median(nil)) {
		t.Error("median of nothing should be NaN")
	}
}

func TestFolderStressWithoutScores(t *testing.T) {
	v, err := FolderStress([]upstream.Folder{{FolderID: 1, FolderName: "A"}}, nil, upstream.PortfolioScoreHistory{}, upstream.PortfolioScoreHistory{})
	if err != nil || v.Drawn || len(v.Folders) != 1 || v.Folders[0].Rise != "no businesses in this folder." {
		t.Errorf("no members, no scores: %+v, %v", v, err)
	}
	// A membership of a folder the folder list lacks is still measured, by id.
	v, _ = FolderStress(nil, []upstream.PortfolioBusiness{{BusinessID: 1, FolderID: 7}}, upstream.PortfolioScoreHistory{}, upstream.PortfolioScoreHistory{})
	if len(v.Folders) != 1 || v.Folders[0].Name != "Folder 7" {
		t.Errorf("unlisted folder: %+v", v.Folders)
	}
}

// Past the first MovesCompared businesses by name the histories hold no
// row: such members are said to be not measured, not to lack a score.
func TestFolderStressPastTheCap(t *testing.T) {
	f := func(v float64) upstream.Num[float64] { return upstream.Some(v) }
	members := []upstream.PortfolioBusiness{{BusinessID: 1, FolderID: 1}, {BusinessID: 2, FolderID: 1}, {BusinessID: 3, FolderID: 1}, {BusinessID: 4, FolderID: 2}}
	pay := stressHistory(map[int32][]upstream.Num[float64]{1: {f(3), f(4)}, 2: {upstream.Num[float64]{}, upstream.Num[float64]{}}})
	z := stressHistory(map[int32][]upstream.Num[float64]{1: {f(2), f(2)}})
	pay.TotalResults, z.TotalResults = 4, 4 // 3 and 4 come later by name
	v, err := FolderStress([]upstream.Folder{{FolderID: 1, FolderName: "A"}, {FolderID: 2, FolderName: "B"}}, members, pay, z)
	if err != nil {
		t.Fatal(err)
	}
	want := "3 businesses; 1 past the first 1,000 by name not measured; 1 without a Pay score (thin trade file) left out of the share; 1 without a Z″ (private company) left out of the median."
	if got := v.Folders[0].Note; got != want {
		t.Errorf("note:\n got %q\nwant %q", got, want)
	}
	if got := v.Folders[1].Rise; got != "not measured: only the first 1,000 businesses by name are, and its 1 business comes after them." {
		t.Errorf("a folder wholly past the cap: %q", got)
	}
}

// A stray score from long ago does not stretch the months followed: they
// end with the newest, at most maxStressMonths of them.
func TestMonthSpanIsBounded(t *testing.T) {
	f := func(v float64) upstream.Num[float64] { return upstream.Some(v) }
	pay := stressHistory(map[int32][]upstream.Num[float64]{1: {f(3), f(4)}})
	pay.Businesses[0].Scores = append(pay.Businesses[0].Scores, upstream.MonthlyScore{Year: 1, Month: 1, Score: f(9)})
	span := monthSpan(pay)
	if len(span) != maxStressMonths || span[len(span)-1] != monthIndexOf(2025, 2) {
		t.Errorf("%d months ending %v, want %d ending 2025-02", len(span), span[len(span)-1], maxStressMonths)
	}
}

// The median Z″ of 2.60 and 2.6098 is shown 2.60 and so is grey, as the
// legend says 2.60 is; its zone used to come from the unrounded 2.6049.
func TestFolderStressMedianZoneAsShown(t *testing.T) {
	f := func(v float64) upstream.Num[float64] { return upstream.Some(v) }
	folders := []upstream.Folder{{FolderID: 1, FolderName: "Retail"}}
	members := []upstream.PortfolioBusiness{{BusinessID: 1, FolderID: 1}, {BusinessID: 2, FolderID: 1}}
	z := stressHistory(map[int32][]upstream.Num[float64]{1: {f(2.6)}, 2: {f(2.6098)}})
	v, err := FolderStress(folders, members, stressHistory(nil), z)
	if err != nil {
		t.Fatal(err)
	}
	rows := v.MedianZ.Table.Rows
	if len(rows) == 0 {
		t.Fatal("no median Z″ table")
	}
	var cells []string
	for _, c := range rows[0].Cells {
		cells = append(cells, c.Text)
	}
	if got := strings.Join(cells, " | "); !strings.Contains(got, "2.60 · grey (2)") {
		t.Errorf("median Z″ row %q, want 2.60 · grey (2)", got)
	}
}
