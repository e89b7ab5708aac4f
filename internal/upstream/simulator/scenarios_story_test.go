package simulator

import (
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"
	"time"
)

// genStories returns a scenario business from the demo dataset and from
// every fixture (other seeds and as-of months), with the as-of month of
// its dataset: a story must hold whatever the draw and the month.
func genStories(t *testing.T, id int32, story string) []scenarioCase {
	t.Helper()
	var out []scenarioCase
	for _, d := range append([]*Dataset{demoNowDataset()}, genTestDatasets(t)...) {
		b, ok := d.Business(id)
		if !ok {
			t.Fatalf("business %d missing from seed %d", id, d.Seed)
		}
		if b.Story != story {
			t.Errorf("business %d: Story %q, want %q", id, b.Story, story)
		}
		asOf, err := genParseMonth(d.AsOf)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, scenarioCase{b: b, asOf: asOf, where: fmt.Sprintf("%d (seed %d, %s)", id, d.Seed, d.AsOf)})
	}
	return out
}

// scenarioCase is one scenario business in one dataset.
type scenarioCase struct {
	b     *Business
	asOf  genMonth
	where string
}

// scoreAt is the score month m, nil when the history does not reach it.
func (s scenarioCase) scoreAt(m genMonth) *ScoreMonth {
	for i := range s.b.Scores {
		sm := &s.b.Scores[i]
		if genMonth(sm.Year*12+sm.Month-1) == m {
			return sm
		}
	}
	return nil
}

// riskAt is the Risk score of month m; the history must reach it.
func (s scenarioCase) riskAt(t *testing.T, m genMonth) int {
	t.Helper()
	sm := s.scoreAt(m)
	if sm == nil || sm.Risk == nil {
		t.Fatalf("%s: no Risk score for %s", s.where, m)
	}
	return *sm.Risk
}

// latest is the newest score month.
func (s scenarioCase) latest() *ScoreMonth { return &s.b.Scores[len(s.b.Scores)-1] }

// genStoryZ is Z″ worked out from a statement's own figures, unrounded.
func genStoryZ(st *Statement) float64 {
	v := func(k string) float64 { return genValue(st, k) }
	ta := v(KeyTotalAssets)
	return 6.56*v(KeyWorkingCapital)/ta + 3.26*v(KeyRetainedEarnings)/ta +
		6.72*v(KeyEBIT)/ta + 1.05*v(KeyShareholdersEquity)/v(KeyTotalLiabilities)
}

// genStoryEnd is the month a statement's period ends in.
func genStoryEnd(t *testing.T, st *Statement) genMonth {
	t.Helper()
	end, err := time.Parse(LayoutDateTime, st.PeriodEndDate)
	if err != nil {
		t.Fatalf("FY%d: period end %q: %v", st.FiscalYear, st.PeriodEndDate, err)
	}
	return genMonthOf(end)
}

// genCurrentRatio is current assets over current liabilities.
func genCurrentRatio(st *Statement) float64 {
	return genValue(st, KeyCurrentAssets) / genValue(st, KeyCurrentLiabilities)
}

// checkComment checks that the analyst's note contains every phrase in
// want and none in not.
func (s scenarioCase) checkComment(t *testing.T, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s.b.FinancialComments, w) {
			t.Errorf("%s: note lacks %q: %q", s.where, w, s.b.FinancialComments)
		}
	}
	for _, w := range not {
		if strings.Contains(s.b.FinancialComments, w) {
			t.Errorf("%s: note says %q: %q", s.where, w, s.b.FinancialComments)
		}
	}
}

// zAgrees checks that the service's Z″ for the month a statement's period
// ends in is that statement's Z″ to two decimals.
func (s scenarioCase) zAgrees(t *testing.T, st *Statement) {
	t.Helper()
	sm := s.scoreAt(genStoryEnd(t, st))
	switch {
	case sm == nil:
		t.Errorf("%s FY%d: the score history does not reach the year end %s", s.where, st.FiscalYear, st.PeriodEndDate)
	case sm.Z == nil:
		t.Errorf("%s FY%d: no Z″ reported for the year-end month", s.where, st.FiscalYear)
	case math.Abs(*sm.Z-genStoryZ(st)) > 0.0051:
		t.Errorf("%s FY%d: service Z″ %.2f, the statements give %.4f", s.where, st.FiscalYear, *sm.Z, genStoryZ(st))
	}
}

// The retailer whose Risk falls from 7 to 2 shows the fall in its newest
// fiscal year, which ends inside the slide (in 2026 for the demo): sales
// shrink, it loses money, working capital runs down and Z″ falls from
// outside the distress zone into it, as the service's Z″ series says; the
// note says so, and the peer ratios of the two years tell the same story.
func TestStory1001RetailerSlide(t *testing.T) {
	for _, s := range genStories(t, 1001, StoryRiskSlide) {
		b := s.b
		if len(b.Statements) < 3 {
			t.Fatalf("%s: %d fiscal years, want at least 3", s.where, len(b.Statements))
		}
		cur, prev := &b.Statements[0], &b.Statements[1]
		end := genStoryEnd(t, cur)
		if s.asOf == genMonthOf(demoNowAsOf) && cur.FiscalYear != 2026 {
			t.Errorf("%s: newest fiscal year %d (ends %s), want one ending in 2026", s.where, cur.FiscalYear, cur.PeriodEndDate)
		}
		// The newest year ends well into the slide, the one before it before the slide began.
		if r := s.riskAt(t, end); r > 4 {
			t.Errorf("%s: Risk at the newest year end %s is %d, want the slide (4 or lower) under way", s.where, end, r)
		}
		if r := s.riskAt(t, genStoryEnd(t, prev)); r < 7 {
			t.Errorf("%s: Risk at the previous year end is %d, want 7 or more", s.where, r)
		}
		v := genValue
		if v(cur, KeySales) >= v(prev, KeySales) {
			t.Errorf("%s: sales %.0f in FY%d, %.0f the year before; want a fall", s.where, v(cur, KeySales), cur.FiscalYear, v(prev, KeySales))
		}
		if v(cur, KeyNetIncome) >= 0 || v(prev, KeyNetIncome) <= 0 {
			t.Errorf("%s: net income %.0f, %.0f the year before; want a profit turning into a loss", s.where, v(cur, KeyNetIncome), v(prev, KeyNetIncome))
		}
		if v(cur, KeyWorkingCapital) >= v(prev, KeyWorkingCapital) {
			t.Errorf("%s: working capital %.0f, %.0f the year before; want it run down", s.where, v(cur, KeyWorkingCapital), v(prev, KeyWorkingCapital))
		}
		z0, z1 := genStoryZ(cur), genStoryZ(prev)
		if z0 >= 1.10 || z1 < 1.10 {
			t.Errorf("%s: statement Z″ %.2f, %.2f the year before; want a fall into distress (below 1.10)", s.where, z0, z1)
		}
		s.zAgrees(t, cur)
		s.zAgrees(t, prev)
		if z := s.latest().Z; z == nil || *z >= 1.10 {
			t.Errorf("%s: latest service Z″ %v, want it still in distress", s.where, z)
		}
		s.checkComment(t, []string{
			fmt.Sprintf("Revenue fell %.1f%%", math.Round((1-v(cur, KeySales)/v(prev, KeySales))*1000)/10),
			fmt.Sprintf("in fiscal %d", cur.FiscalYear),
			"net loss", "EBIT margin slipped", "but weakening",
			fmt.Sprintf("current ratio of %.2f, down from %.2f", genCurrentRatio(cur), genCurrentRatio(prev)),
			"Payments are about as timely", // DBT stays about 3
		}, []string{"Liquidity is strong", "Revenue rose", "net income came"})
	}
	genStoryPeersFall(t, 1001)
}

// genStoryPeers checks, on the demo dataset, that PeerAnalysis of a
// business's newest fiscal year and of the year before compares it with
// peers and gives the ratios of those years' statements, and returns them.
func genStoryPeers(t *testing.T, id int32) (newest, before map[string]float64) {
	t.Helper()
	h := demoNowHarness(t)
	b := h.srv.byID[id]
	key := h.login("demo")
	ratios := func(st *Statement) map[string]float64 {
		d := h.peers(key, url.Values{"id": {fmt.Sprint(id)}, "Year": {fmt.Sprint(st.FiscalYear)}})
		if d.PeerCount < 2 {
			t.Errorf("%d FY%d: %d businesses compared, want peers besides itself", id, st.FiscalYear, d.PeerCount)
		}
		want := expectedRatios(st.Values)
		out := map[string]float64{}
		for _, r := range d.Ratios {
			w, ok := want[r.Ratio]
			if !ok && r.Value == nil {
				continue // the statements lack an input
			}
			if !ok || r.Value == nil || *r.Value != w {
				t.Errorf("%d FY%d: peer %s %v, the statements give %v", id, st.FiscalYear, r.Ratio, r.Value, want[r.Ratio])
				continue
			}
			out[r.Ratio] = *r.Value
		}
		return out
	}
	return ratios(&b.Statements[0]), ratios(&b.Statements[1])
}

// genStoryPeersFall checks that the newest year's peer ratios show a loss
// and weaker liquidity than the year before's.
func genStoryPeersFall(t *testing.T, id int32) {
	t.Helper()
	now, before := genStoryPeers(t, id)
	if now["NetMargin"] >= 0 || now["CurrentRatio"] >= before["CurrentRatio"] || now["WorkingCapitalToAssets"] >= before["WorkingCapitalToAssets"] {
		t.Errorf("%d: peer ratios of the newest year %v against the year before %v; want a loss and weaker liquidity", id, now, before)
	}
}

// The strong manufacturer that pays slowly: Risk 9 with statements to
// match (profits, strong liquidity, Z″ safe in every year and every
// month), and a note that says both.
func TestStory1002StrongSlowPayer(t *testing.T) {
	for _, s := range genStories(t, 1002, StorySlowPayer) {
		b := s.b
		if len(b.Statements) < 3 {
			t.Fatalf("%s: %d fiscal years, want at least 3", s.where, len(b.Statements))
		}
		for k := range b.Statements {
			st := &b.Statements[k]
			if z, cr, ni := genStoryZ(st), genCurrentRatio(st), genValue(st, KeyNetIncome); z <= 2.60 || cr < 1.5 || ni <= 0 {
				t.Errorf("%s FY%d: Z″ %.2f, current ratio %.2f, net income %.0f; want safe, strong and profitable", s.where, st.FiscalYear, z, cr, ni)
			}
			if s.scoreAt(genStoryEnd(t, st)) != nil {
				s.zAgrees(t, st)
			}
		}
		for _, sm := range b.Scores {
			if sm.Z == nil || *sm.Z <= 2.60 {
				t.Errorf("%s %d-%02d: service Z″ %v, want safe (above 2.60)", s.where, sm.Year, sm.Month, sm.Z)
			}
		}
		p := &b.PaymentsMonthly[0]
		if *p.DBTIndex < 16 || *p.AverageDBTIndex > 10 {
			t.Errorf("%s: DBT %d against industry %d; want late (16+) against an industry of 4-10", s.where, *p.DBTIndex, *p.AverageDBTIndex)
		}
		s.checkComment(t, []string{
			"Liquidity is strong", "net income came to",
			fmt.Sprintf("on average %d days beyond terms against an industry average of %d", *p.DBTIndex, *p.AverageDBTIndex),
			"Payments are about as timely", // it has paid about 20 days late all along
		}, []string{"net loss", "Liquidity is tight", "weakening"})
	}
	if now, _ := genStoryPeers(t, 1002); now["NetMargin"] <= 0 || now["CurrentRatio"] < 1.5 {
		t.Errorf("1002: peer ratios %v; want a profit and a strong current ratio", now)
	}
}

// The private distributor with a thin trade file: no Pay score, no Z″, no
// statements, a handful of trade lines, and a note that says why.
func TestStory1003ThinTradeFile(t *testing.T) {
	for _, s := range genStories(t, 1003, StoryThinTradeFile) {
		b := s.b
		if b.Public || len(b.Statements) != 0 {
			t.Errorf("%s: public %v with %d fiscal years; want private without statements", s.where, b.Public, len(b.Statements))
		}
		for _, sm := range b.Scores {
			if sm.Pay != nil || sm.Z != nil || sm.Risk == nil || sm.DBT == nil {
				t.Errorf("%s %d-%02d: Pay %v, Z %v, Risk %v, DBT %v; want Risk and DBT only", s.where, sm.Year, sm.Month, sm.Pay, sm.Z, sm.Risk, sm.DBT)
			}
		}
		for _, p := range b.PaymentsMonthly {
			if p.Accounts > 4 {
				t.Errorf("%s %s: %d trade lines; a thin file has a handful", s.where, p.MonthReported, p.Accounts)
			}
		}
		s.checkComment(t, []string{
			"No financial statements are on file.",
			fmt.Sprintf("%d trade lines", b.PaymentsMonthly[0].Accounts),
			"The trade file is too thin for a Pay score.",
		}, nil)
	}
}

// The carrier in Chapter 11: its newest fiscal year, ending when Risk had
// reached 1, shows the distress (sales down, a loss, negative working
// capital, Z″ below zero) as the service's Z″ does; most of its money is
// 91+ days late, its news carries the filing, and the note agrees.
func TestStory1004Chapter11(t *testing.T) {
	for _, s := range genStories(t, 1004, StoryChapter11) {
		b := s.b
		if len(b.Statements) < 2 {
			t.Fatalf("%s: %d fiscal years, want at least 2", s.where, len(b.Statements))
		}
		cur, prev := &b.Statements[0], &b.Statements[1]
		if r := s.riskAt(t, genStoryEnd(t, cur)); r > 2 {
			t.Errorf("%s: Risk at the newest year end is %d, want 2 or lower", s.where, r)
		}
		v := genValue
		if v(cur, KeySales) >= v(prev, KeySales) || v(cur, KeyNetIncome) >= 0 || v(cur, KeyEBIT) >= 0 || v(cur, KeyWorkingCapital) >= 0 {
			t.Errorf("%s FY%d: sales %.0f (from %.0f), EBIT %.0f, net income %.0f, working capital %.0f; want shrinking, loss-making and short of working capital",
				s.where, cur.FiscalYear, v(cur, KeySales), v(prev, KeySales), v(cur, KeyEBIT), v(cur, KeyNetIncome), v(cur, KeyWorkingCapital))
		}
		if z := genStoryZ(cur); z >= 0 {
			t.Errorf("%s FY%d: statement Z″ %.2f, want deep distress (below 0)", s.where, cur.FiscalYear, z)
		}
		s.zAgrees(t, cur)
		if r, z := s.latest().Risk, s.latest().Z; *r != 1 || z == nil || *z >= 1.10 {
			t.Errorf("%s: latest Risk %d, Z″ %v; want 1 and distress", s.where, *r, z)
		}
		if share := b.PaymentsMonthly[0].PastDueOver90DaysPercent; share <= 30 {
			t.Errorf("%s: 91+ share %.2f%%, want above 30%%", s.where, share)
		}
		found := false
		for _, n := range b.News {
			found = found || strings.Contains(n.Title, "Chapter 11")
		}
		if !found {
			t.Errorf("%s: no Chapter 11 headline in its news", s.where)
		}
		yearAgo := s.scoreAt(s.asOf - 12)
		s.checkComment(t, []string{
			"Revenue fell", "net loss", "Liquidity is tight and weakening", "negative working capital",
			fmt.Sprintf("Payments have slowed from %d days beyond terms a year earlier.", *yearAgo.DBT),
		}, []string{"Liquidity is strong", "Liquidity is adequate", "Revenue rose", "net income came"})
	}
	genStoryPeersFall(t, 1004)
}

// The private turnaround: Pay 3 a year ago, 7 now, with DBT falling to
// match; it files no statements, and the note says both.
func TestStory1005PayTurnaround(t *testing.T) {
	for _, s := range genStories(t, 1005, StoryPayTurnaround) {
		b := s.b
		then, now := s.scoreAt(s.asOf-12), s.latest()
		if then.Pay == nil || now.Pay == nil || *then.Pay != 3 || *now.Pay != 7 || *now.DBT >= *then.DBT-10 {
			t.Errorf("%s: Pay %v -> %v, DBT %d -> %d over the year; want Pay 3 -> 7 as DBT falls", s.where, then.Pay, now.Pay, *then.DBT, *now.DBT)
		}
		if b.Public || len(b.Statements) != 0 {
			t.Errorf("%s: public %v with %d fiscal years; want a private company without statements", s.where, b.Public, len(b.Statements))
		}
		if p := b.PaymentsMonthly[0]; *p.DBTIndex != *now.DBT {
			t.Errorf("%s: latest payments DBT %d, score history %d", s.where, *p.DBTIndex, *now.DBT)
		}
		s.checkComment(t, []string{
			"No financial statements are on file.",
			fmt.Sprintf("paid on average %d days beyond terms", *now.DBT),
			fmt.Sprintf("Payments have improved from %d days beyond terms a year earlier.", *then.DBT),
		}, []string{"slowed"})
	}
}

// The public company whose Z″ is missing for the latest quarters still has
// statements and a Z″ before the gap that matches them; its note follows
// its statements.
func TestStory1006ZScoreMissing(t *testing.T) {
	for _, s := range genStories(t, 1006, StoryZScoreMissing) {
		b := s.b
		if !b.Public || len(b.Statements) < 3 {
			t.Fatalf("%s: public %v with %d fiscal years; want public with statements", s.where, b.Public, len(b.Statements))
		}
		if z := s.latest().Z; z != nil {
			t.Errorf("%s: latest Z″ %.2f, want none", s.where, *z)
		}
		compared := 0
		for k := range b.Statements {
			st := &b.Statements[k]
			end := genStoryEnd(t, st)
			if sm := s.scoreAt(end); sm != nil && end.quarter() < s.asOf.quarter()-2 {
				s.zAgrees(t, st)
				compared++
			}
		}
		if compared == 0 {
			t.Errorf("%s: no fiscal year before the gap to compare with the service's Z″", s.where)
		}
		genStoryCommentFollowsStatements(t, s)
	}
	genStoryPeers(t, 1006)
}

// genStoryCommentFollowsStatements checks the note against the two newest
// years: revenue direction, profit or loss, and the current ratio.
func genStoryCommentFollowsStatements(t *testing.T, s scenarioCase) {
	t.Helper()
	cur, prev := &s.b.Statements[0], &s.b.Statements[1]
	v := genValue
	want := []string{fmt.Sprintf("in fiscal %d", cur.FiscalYear), fmt.Sprintf("current ratio of %.2f", genCurrentRatio(cur))}
	switch g := math.Round((v(cur, KeySales)/v(prev, KeySales)-1)*1000) / 10; {
	case g > 0:
		want = append(want, fmt.Sprintf("Revenue rose %.1f%%", g))
	case g < 0:
		want = append(want, fmt.Sprintf("Revenue fell %.1f%%", -g))
	default:
		want = append(want, "Revenue was flat")
	}
	if v(cur, KeyNetIncome) < 0 {
		want = append(want, "net loss")
	} else {
		want = append(want, "net income came to")
	}
	s.checkComment(t, want, nil)
}

// The business with nothing on file: empty statements and officers, no
// Z″, and a note that says there are no statements.
func TestStory1007NoStatementsNoOfficers(t *testing.T) {
	for _, s := range genStories(t, 1007, StoryNoFinancials) {
		b := s.b
		if len(b.Statements) != 0 || len(b.Officers) != 0 || b.Public {
			t.Errorf("%s: %d fiscal years, %d officers, public %v; want none, none, private", s.where, len(b.Statements), len(b.Officers), b.Public)
		}
		for _, sm := range b.Scores {
			if sm.Z != nil {
				t.Errorf("%s %d-%02d: Z″ %.2f without statements", s.where, sm.Year, sm.Month, *sm.Z)
			}
		}
		s.checkComment(t, []string{"No financial statements are on file."}, []string{"Revenue", "Liquidity"})
	}
}
