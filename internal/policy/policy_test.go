package policy

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

// handHistory is four accounts over four month-ends, small enough to
// work out by hand (TestValidateByHand). Every balance is 100, so an
// over-90 amount is its share in per cent.
//
//	month      202401        202402         202403          202404
//	A          Risk 8 Pay 7  Risk 8 Pay 7   Risk 8          Risk 7
//	B          Risk 3 Pay 4  Risk 2, 30 %   Risk 2, 40 %    (closed)
//	C          Risk 5        Risk 5         Risk 4, 26 %    Risk 4, 50 %
//	D          Risk 5        Risk 6         Risk 6, 25 %    Risk 6, 10 %
func handHistory() *History {
	l := func(a int32, risk, pay int8, over90 float64) Line {
		return Line{Account: a, Balance: 100, Current: 100 - over90, Over90: over90, Limit: math.NaN(), Z: float32(math.NaN()), Risk: risk, Pay: pay, DBT: -1}
	}
	const A, B, C, D = 0, 1, 2, 3
	return &History{
		Months:   []int{202401, 202402, 202403, 202404},
		Accounts: []string{"A", "B", "C", "D"},
		Lines: [][]Line{
			{l(A, 8, 7, 0), l(B, 3, 4, 0), l(C, 5, Missing, 0), l(D, 5, Missing, 0)},
			{l(A, 8, 7, 0), l(B, 2, Missing, 30), l(C, 5, Missing, 0), l(D, 6, Missing, 0)},
			{l(A, 8, Missing, 0), l(B, 2, Missing, 40), l(C, 4, Missing, 26), l(D, 6, Missing, 25)},
			{l(A, 7, Missing, 0), l(C, 4, Missing, 50), l(D, 6, Missing, 10)},
		},
	}
}

// handCard scores Risk (below 5: 0 points, else 10; missing 5), the
// share over 90 (below 10 %: 6, else 0; missing 3) and Pay (below 5: 0,
// else 4; missing 2).
var handCard = Scorecard{
	Factors: []Factor{
		{Kind: FactorRisk, Edges: []float64{5}, Points: []int{0, 10}, Missing: 5},
		{Kind: FactorOver90, Edges: []float64{0.10}, Points: []int{6, 0}, Missing: 3},
		{Kind: FactorPay, Edges: []float64{5}, Points: []int{0, 4}, Missing: 2},
	},
	Classes: []Class{{"safe", 15}, {"watch", math.MinInt32}},
}

func near(got, want float64) bool { return math.Abs(got-want) < 1e-12 }

// TestValidateByHand checks every figure against the arithmetic below.
//
// Default: over 25 % past 90 days, within 2 months. Months 0 and 1 have a
// whole window after them (month 1's is months 2 and 3), so they are
// scored; months 2 and 3 are not.
//
//   - B is in default at month 1 (30 % > 25 %): bad at month 0, not
//     scored at month 1 (already in default).
//   - C is in default at month 2 (26 %): bad at months 0 and 1.
//   - D's 25 % at month 2 is not above 25 %: never in default, good.
//   - A never: good.
//
// Risk alone: goods A8 D5 (month 0), A8 D6 (month 1); bads B3 C5 (month
// 0), C5 (month 1). 4 goods × 3 bads = 12 pairs; a good above a bad
// counts 1, a tie 1/2:
//
//	good D5: B3 1, C5 ½, C5 ½ = 2
//	good D6: 1 + 1 + 1        = 3
//	good A8: 3, and A8 again: 3
//	AUC = (2+3+3+3)/12 = 11/12, Gini = 2·11/12 − 1 = 5/6
//
// KS, shares at or below each score (bad of 3, good of 4):
//
//	≤3: 1/3 − 0 = 1/3;  ≤5: 3/3 − 1/4 = 3/4;  ≤6: 1 − 2/4;  ≤8: 0.  KS = 3/4
//
// Pay alone: only A (7, twice, good) and B (4, bad) have a Pay score:
// AUC 2/2 = 1, KS 1, 2 accounts, 1 default.
//
// The hand scorecard (Risk + share over 90 + Pay, missing Pay 2):
//
//	month 0: A 10+6+4 = 20, B 0+6+0 = 6, C 10+6+2 = 18, D 10+6+2 = 18
//	month 1: A 20, C 18, D 18 (Risk 6: 10)
//	goods A20 D18 A20 D18; bads B6 C18 C18
//	good 20: 1+1+1 = 3, twice = 6; good 18: 1+½+½ = 2, twice = 4
//	AUC = 10/12 = 5/6, Gini 2/3
//	KS: ≤6: 1/3 − 0; ≤18: 1 − 2/4 = 1/2; ≤20: 0.  KS = 1/2
func TestValidateByHand(t *testing.T) {
	models := []Model{
		handCard.Model("card", "Hand scorecard"),
		ScoreModel("risk", "Risk score alone", FactorRisk),
		ScoreModel("pay", "Pay score alone", FactorPay),
	}
	rep, err := Validate(handHistory(), Definition{Over90: 0.25, Horizon: 2}, models)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Scored) != 2 || rep.Scored[1] != 202402 {
		t.Fatalf("scored months %v, want 202401 and 202402", rep.Scored)
	}
	want := []struct {
		auc, ks                       float64
		obs, bads, accounts, defaults int
	}{
		{10.0 / 12, 0.5, 7, 3, 4, 2},
		{11.0 / 12, 0.75, 7, 3, 4, 2},
		{1, 1, 3, 1, 2, 1},
	}
	for i, w := range want {
		f := rep.Results[i].Figures
		if !near(f.AUC, w.auc) || !near(f.Gini, 2*w.auc-1) || !near(f.KS, w.ks) || f.Observations != w.obs ||
			f.Bads != w.bads || f.Accounts != w.accounts || f.Defaults != w.defaults || f.Months != 2 {
			t.Errorf("%s: %+v, want AUC %v KS %v obs %d bads %d accounts %d defaults %d months 2",
				models[i].Name, f, w.auc, w.ks, w.obs, w.bads, w.accounts, w.defaults)
		}
	}
	// Bad rate per Risk zone: low A8 A8 (0 of 2), moderate D6 (0 of 1),
	// elevated D5 C5 C5 (2 of 3), high B3 (1 of 1), severe none.
	rates := rep.Results[1].Classes
	got := []int{}
	for _, c := range rates {
		got = append(got, c.Observations, c.Bads)
	}
	if want := []int{2, 0, 1, 0, 3, 2, 1, 1, 0, 0}; !equalInts(got, want) {
		t.Errorf("Risk zones (observations, bads) %v, want %v", got, want)
	}
	if r := rates[2].Rate(); !near(r, 2.0/3) || !math.IsNaN(rates[4].Rate()) {
		t.Errorf("elevated rate %v, want 2/3; empty severe %v, want NaN", r, rates[4].Rate())
	}
	// Each class scored has the bootstrap interval of its bad rate; the
	// empty one has none.
	if in := rates[2].Interval; !(in.Low >= 0 && in.Low <= in.High && in.High <= 1) || !math.IsNaN(rates[4].Interval.Low) {
		t.Errorf("elevated's interval %+v, severe's %+v", in, rates[4].Interval)
	}
	// The hand card's classes: safe (15+) A20 D18 A20 D18 C18 C18, 2 bad
	// of 6; watch B6, 1 of 1.
	if c := rep.Results[0].Classes; c[0].Observations != 6 || c[0].Bads != 2 || c[1].Observations != 1 || c[1].Bads != 1 {
		t.Errorf("card classes %+v", c)
	}
}

// TestFilingIsADefault: a filing makes every month-end from it a default.
// D filed at month 3 turns its month-1 observation bad (window 2–3), not
// its month-0 one (window 1–2). Risk alone: goods A8 D5 A8, bads B3 C5
// C5 D6; pairs 3 × 4 = 12: D5 beats B3 (1), ties C5 twice (½ + ½), loses
// to D6: 2; each A8 beats all four: 8. AUC = 10/12.
func TestFilingIsADefault(t *testing.T) {
	h := handHistory()
	h.Filed = []int{-1, -1, -1, 3}
	rep, err := Validate(h, Definition{Over90: 0.25, Horizon: 2}, []Model{ScoreModel("risk", "Risk", FactorRisk)})
	if err != nil {
		t.Fatal(err)
	}
	if f := rep.Results[0].Figures; !near(f.AUC, 10.0/12) || f.Defaults != 3 || f.Bads != 4 {
		t.Errorf("with D's filing: %+v, want AUC 10/12, 3 defaults, 4 bad observations", f)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFeatures works out the ledger's factors of one line: balance 200
// aged 100 / 40 / 20 / 20 / 20, limit 400, 160 three months before,
// first listed 24 months earlier.
//
//	days beyond terms = (40·15 + 20·45 + 20·75 + 20·105) / 200 = 5100/200 = 25.5
//	share over 90 = 20/200 = 0.1; utilisation 200/400 = 0.5
//	years = 24/12 = 2; trend = 200/160 − 1 = 0.25
func TestFeatures(t *testing.T) {
	l := Line{Balance: 200, Current: 100, Days1to30: 40, Days31to60: 20, Days61to90: 20, Over90: 20, Limit: 400, Z: 1.5, Risk: 6, Pay: Missing, DBT: 12}
	before := Line{Balance: 160}
	f := featuresOf(&l, &before, 30, 6)
	want := features{6, math.NaN(), 12, 1.5, 25.5, 0.1, 0.5, 2, 0.25}
	for i := range want {
		if !(near(f[i], want[i]) || math.IsNaN(f[i]) && math.IsNaN(want[i])) {
			t.Errorf("feature %d = %v, want %v", i, f[i], want[i])
		}
	}
	// The starting card: Risk 6 (18), Pay missing (8), DBT 12 (9), Z″
	// 1.5 (4), 25.5 days (4), 10 % over 90 (3), utilisation 0.5 (4), 2
	// years (2), trend 0.25 (2) = 54, class C.
	m := StartingScorecard.Model("scorecard", "")
	if s, _ := m.score(&f); s != 54 || StartingScorecard.Classes[classOf(StartingScorecard.Classes, s)].Name != "C" {
		t.Errorf("starting scorecard = %d, want 54 (class C)", s)
	}
	if err := StartingScorecard.Check(); err != nil {
		t.Error(err)
	}
}

// TestCSVRecomputes: validation.csv is exactly what scores.csv gives.
func TestCSVRecomputes(t *testing.T) {
	rep, err := Validate(handHistory(), Definition{Over90: 0.25, Horizon: 2}, StandardModels())
	if err != nil {
		t.Fatal(err)
	}
	var sum, scores bytes.Buffer
	if err := WriteSummary(&sum, rep); err != nil {
		t.Fatal(err)
	}
	if err := WriteScores(&scores, rep, []string{"A", "=B", "C", "D"}, func(s string) string {
		if strings.HasPrefix(s, "=") {
			return "'" + s
		}
		return s
	}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sum.String(), "model,gini,auc,ks,accounts,defaults,months\nscorecard,") ||
		!strings.HasPrefix(scores.String(), "model,account,month,score,defaulted\nscorecard,A,2024-01,") ||
		!strings.Contains(scores.String(), "risk,'=B,2024-01,3,1\n") {
		t.Fatalf("files:\n%s\n%s", sum.String(), scores.String())
	}
	rows, err := Recompute(&scores, []string{"scorecard", "risk", "pay"})
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	again.WriteString(strings.Join(SummaryHeader, ",") + "\n")
	for _, r := range rows {
		again.WriteString(strings.Join(r, ",") + "\n")
	}
	if again.String() != sum.String() {
		t.Errorf("recomputed:\n%s\nwant:\n%s", again.String(), sum.String())
	}
	if !strings.Contains(sum.String(), "risk,0.8333,0.9167,0.7500,4,2,2\n") {
		t.Errorf("risk row: %s", sum.String())
	}
}

// TestBootstrapSeeded: the same history gives the same intervals, and
// each holds the figure it is about.
func TestBootstrapSeeded(t *testing.T) {
	var obs []Obs
	for a := range int32(300) {
		for m := range int16(6) {
			s := int32(a%10 + 1)
			obs = append(obs, Obs{Account: a, Month: m, Score: s, Bad: (int(a)*7+int(m))%23 < 12-int(s)})
		}
	}
	classes := []Class{{"safe", 6}, {"risky", math.MinInt32}}
	one, oneRates := bootstrap(obs, 100, 1, classes)
	two, twoRates := bootstrap(obs, 100, 1, classes)
	if one != two || !slices.Equal(oneRates, twoRates) {
		t.Fatalf("bootstrap not deterministic: %+v %v vs %+v %v", one, oneRates, two, twoRates)
	}
	f := Measure(obs)
	if !(one.AUC.Low <= f.AUC && f.AUC <= one.AUC.High && one.AUC.Low < one.AUC.High) || !(one.KS.Low <= f.KS && f.KS <= one.KS.High) {
		t.Errorf("AUC %v in %+v? KS %v in %+v?", f.AUC, one.AUC, f.KS, one.KS)
	}
	// Each class's bad rate lies in its own interval, which has width.
	for k, c := range BadRates(obs, classes) {
		if r, in := c.Rate(), oneRates[k]; !(in.Low <= r && r <= in.High && in.Low < in.High) {
			t.Errorf("class %s: bad rate %v in %+v?", c.Class, r, in)
		}
	}
	if other, _ := bootstrap(obs, 100, 2, classes); other == one {
		t.Error("another seed gave the same intervals")
	}
}

// TestValidateRefuses: a gap in the months, or too short a history.
func TestValidateRefuses(t *testing.T) {
	h := handHistory()
	h.Months[2] = 202405
	if _, err := Validate(h, StandardDefinition, StandardModels()); err == nil {
		t.Error("a gap in the months was accepted")
	}
	if _, err := Validate(handHistory(), StandardDefinition, StandardModels()); err != ErrShortHistory {
		t.Errorf("4 months with a 12-month window: %v, want ErrShortHistory", err)
	}
}
