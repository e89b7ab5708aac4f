package simulator

import (
	"strings"
	"testing"
)

// genScenarioBusinesses returns a scenario business from every fixture
// (other seeds and as-of months: a story must not depend on the draw) and
// checks its story.
func genScenarioBusinesses(t *testing.T, id int32, story string) []*Business {
	t.Helper()
	var out []*Business
	for _, d := range genTestDatasets(t) {
		b, ok := d.Business(id)
		if !ok {
			t.Fatalf("business %d missing", id)
		}
		if b.Story != story {
			t.Errorf("business %d: Story %q, want %q", id, b.Story, story)
		}
		out = append(out, b)
	}
	if StoryNote(story) == "" {
		t.Errorf("StoryNote(%q) is empty", story)
	}
	return out
}

// genLatest returns the last n months of scores.
func genLatest(b *Business, n int) []ScoreMonth { return b.Scores[len(b.Scores)-n:] }

func TestScenario1001RiskSlide(t *testing.T) {
	for _, b := range genScenarioBusinesses(t, 1001, StoryRiskSlide) {
		if !b.Public || !strings.HasPrefix(b.NAICS[0].Code, "45") {
			t.Errorf("1001: public %v, NAICS %s; want a public retailer", b.Public, b.NAICS[0].Code)
		}
		year := genLatest(b, 13)
		if *year[0].Risk != 7 || *year[12].Risk != 2 {
			t.Errorf("1001: Risk %d a year ago and %d now, want 7 -> 2", *year[0].Risk, *year[12].Risk)
		}
		for k := 1; k < len(year); k++ {
			if *year[k].Risk > *year[k-1].Risk {
				t.Errorf("1001: Risk rose %d -> %d during the slide", *year[k-1].Risk, *year[k].Risk)
			}
		}
		for _, s := range year {
			if *s.DBT < 2 || *s.DBT > 4 {
				t.Errorf("1001 %d-%02d: DBT %d, want about 3 throughout", s.Year, s.Month, *s.DBT)
			}
		}
	}
}

func TestScenario1002SlowPayer(t *testing.T) {
	for _, b := range genScenarioBusinesses(t, 1002, StorySlowPayer) {
		if !strings.HasPrefix(b.NAICS[0].Code, "33") || genValue(&b.Statements[0], KeySales) < 10e9 {
			t.Errorf("1002: NAICS %s, sales %.0f; want a large manufacturer", b.NAICS[0].Code, genValue(&b.Statements[0], KeySales))
		}
		for _, s := range b.Scores {
			if *s.Risk != 9 || *s.DBT < 17 || *s.DBT > 23 {
				t.Errorf("1002 %d-%02d: Risk %d, DBT %d; want Risk 9 with DBT about 20", s.Year, s.Month, *s.Risk, *s.DBT)
			}
		}
	}
}

func TestScenario1003ThinTradeFile(t *testing.T) {
	for _, b := range genScenarioBusinesses(t, 1003, StoryThinTradeFile) {
		if b.Public || !strings.HasPrefix(b.NAICS[0].Code, "42") {
			t.Errorf("1003: public %v, NAICS %s; want a private distributor", b.Public, b.NAICS[0].Code)
		}
		for _, s := range b.Scores {
			if s.Pay != nil {
				t.Fatalf("1003 %d-%02d: Pay %d, want none", s.Year, s.Month, *s.Pay)
			}
		}
		if a := b.PaymentsMonthly[0].Accounts; a > 4 {
			t.Errorf("1003: %d trade lines; a thin file has few", a)
		}
	}
}

func TestScenario1004Chapter11(t *testing.T) {
	for _, b := range genScenarioBusinesses(t, 1004, StoryChapter11) {
		if r := *genLatest(b, 1)[0].Risk; r != 1 {
			t.Errorf("1004: Risk %d, want 1", r)
		}
		for _, p := range b.PaymentsMonthly[:3] {
			if p.PastDueOver90DaysPercent <= 30 {
				t.Errorf("1004 %s: 91+ share %.2f%%, want above 30%%", p.MonthReported, p.PastDueOver90DaysPercent)
			}
		}
		found := false
		for _, n := range b.News[:min(len(b.News), 12)] {
			found = found || strings.Contains(n.Title, "Chapter 11")
		}
		if !found {
			t.Error("1004: no Chapter 11 headline among its latest news")
		}
	}
}

func TestScenario1005PayTurnaround(t *testing.T) {
	for _, b := range genScenarioBusinesses(t, 1005, StoryPayTurnaround) {
		if b.Public {
			t.Error("1005: public, want private")
		}
		year := genLatest(b, 13)
		if year[0].Pay == nil || year[12].Pay == nil || *year[0].Pay != 3 || *year[12].Pay != 7 {
			t.Fatalf("1005: Pay %v a year ago and %v now, want 3 -> 7", year[0].Pay, year[12].Pay)
		}
		for k := 1; k < len(year); k++ {
			if *year[k].Pay < *year[k-1].Pay {
				t.Errorf("1005: Pay fell %d -> %d during the turnaround", *year[k-1].Pay, *year[k].Pay)
			}
		}
	}
}

func TestScenario1006ZScoreMissing(t *testing.T) {
	for _, b := range genScenarioBusinesses(t, 1006, StoryZScoreMissing) {
		if !b.Public || len(b.Statements) == 0 {
			t.Fatal("1006: want a public company with statements")
		}
		last := genMonth(b.Scores[len(b.Scores)-1].Year*12 + b.Scores[len(b.Scores)-1].Month - 1).quarter()
		earlier := 0
		for _, s := range b.Scores {
			q := genMonth(s.Year*12 + s.Month - 1).quarter()
			switch {
			case q >= last-1 && s.Z != nil:
				t.Errorf("1006 %d-%02d: Z %.2f, want none in the last two quarters", s.Year, s.Month, *s.Z)
			case q < last-2 && s.Z != nil:
				earlier++
			}
		}
		if earlier < 12 {
			t.Errorf("1006: only %d months with a Z-Score before the gap", earlier)
		}
	}
}

func TestScenario1007NoStatementsNoOfficers(t *testing.T) {
	for _, b := range genScenarioBusinesses(t, 1007, StoryNoFinancials) {
		if b.Statements == nil || b.Officers == nil || len(b.Statements) != 0 || len(b.Officers) != 0 {
			t.Errorf("1007: statements %v, officers %v; want empty, non-nil lists", b.Statements, b.Officers)
		}
		d := &Dataset{AsOf: "2026-05", Businesses: []Business{*b}}
		out := string(genJSON(t, d))
		if !strings.Contains(out, `"statements": []`) || !strings.Contains(out, `"officers": []`) {
			t.Error(`1007: JSON does not show "statements": [] and "officers": []`)
		}
	}
}
