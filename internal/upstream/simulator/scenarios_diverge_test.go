package simulator

import "testing"

// genDBTSeries is a business's DBT by month, newest first: overall, and
// toward one supplier category.
func genDBTSeries(b *Business, code string) (overall, toward map[string]int, months []string) {
	overall, toward = map[string]int{}, map[string]int{}
	for _, p := range b.PaymentsMonthly {
		if p.DBTIndex != nil {
			overall[p.MonthReported] = *p.DBTIndex
			months = append(months, p.MonthReported)
		}
	}
	for _, p := range b.PaymentsSIC {
		if p.CategoryCode == code && p.DBTIndex != nil {
			toward[p.MonthReported] = *p.DBTIndex
		}
	}
	return overall, toward, months
}

// 1008 pays the suppliers it cannot do without and lets the others wait:
// over the last three months its DBT toward electronic parts (SIC 36)
// rises by 12-20 days while its overall DBT moves by 2 or less, in every
// dataset; before that the category was paid no later than the business's
// other suppliers on average. Its overall file looks like a steady slow
// payer with a Pay score, and it is in the demo user's portfolio.
func TestStory1008PaysSuppliersLast(t *testing.T) {
	for _, s := range genStories(t, 1008, StorySuppliersLast) {
		overall, toward, months := genDBTSeries(s.b, ScenarioDivergeSIC)
		if len(months) < 4 {
			t.Fatalf("%s: %d payment months", s.where, len(months))
		}
		now, before := months[0], months[3]
		if now != s.asOf.String() {
			t.Errorf("%s: newest payment month %s, want %s", s.where, now, s.asOf)
		}
		c0, ok0 := toward[before]
		c3, ok3 := toward[now]
		if !ok0 || !ok3 {
			t.Fatalf("%s: no DBT toward SIC %s in %s or %s", s.where, ScenarioDivergeSIC, before, now)
		}
		if rise := c3 - c0; rise < 12 || rise > 20 {
			t.Errorf("%s: DBT toward SIC %s %d -> %d from %s to %s, a rise of %d; want 12-20", s.where, ScenarioDivergeSIC, c0, c3, before, now, rise)
		}
		if move := overall[now] - overall[before]; move < -2 || move > 2 {
			t.Errorf("%s: overall DBT %d -> %d, a move of %d; want 2 or less", s.where, overall[before], overall[now], move)
		}
		if c0 > overall[before] {
			t.Errorf("%s: SIC %s at %d days in %s, already later than overall (%d)", s.where, ScenarioDivergeSIC, c0, before, overall[before])
		}
		last := s.b.Scores[len(s.b.Scores)-1]
		if s.b.Public || last.Pay == nil || last.DBT == nil || *last.DBT < 6 || *last.DBT > 14 {
			t.Errorf("%s: public %v, Pay %v, DBT %v; want a private slow payer (DBT 6-14) with a Pay score", s.where, s.b.Public, last.Pay, last.DBT)
		}
	}
}

// A prompt payer shows no such divergence: 1001 pays every supplier
// category within a few days of its overall DBT, month after month.
func TestStoryPromptPayerNoDivergence(t *testing.T) {
	for _, s := range genStories(t, 1001, StoryRiskSlide) {
		codes := map[string]bool{}
		for _, p := range s.b.PaymentsSIC {
			codes[p.CategoryCode] = true
		}
		for code := range codes {
			overall, toward, months := genDBTSeries(s.b, code)
			now, before := months[0], months[3]
			if rise := toward[now] - toward[before]; rise >= 10 && overall[now]-overall[before] < 3 {
				t.Errorf("%s: DBT toward SIC %s rose %d days while overall moved %d", s.where, code, rise, overall[now]-overall[before])
			}
		}
	}
}
