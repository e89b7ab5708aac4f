package views

import (
	"strings"
	"testing"

	"creditdash/internal/upstream"
)

// Facts pair by label: a month new today is one new row, not a shift of
// every row below it; a fact gone today says so; namesakes pair in order.
func TestCompareFacts(t *testing.T) {
	then := []Fact{{"Name", "Acme"}, {"Oct 2026", "DBT 5"}, {"Sep 2026", "DBT 4"}, {"Officer Ana Ruiz", "CEO"}, {"Officer Ana Ruiz", "CFO"}, {"Old", "x"}}
	now := []Fact{{"Name", "Acme"}, {"Nov 2026", "DBT 9"}, {"Oct 2026", "DBT 5"}, {"Sep 2026", "DBT 6"}, {"Officer Ana Ruiz", "CEO"}, {"Officer Ana Ruiz", "CFO"}}
	rows := CompareFacts(then, now)
	got := map[string]ThenNowRow{}
	var order []string
	for _, r := range rows {
		k := r.Label + "|" + r.Then
		got[k] = r
		order = append(order, r.Label)
	}
	want := []struct {
		key, now, word string
		changed        bool
	}{
		{"Name|Acme", "Acme", "unchanged", false},
		{"Oct 2026|DBT 5", "DBT 5", "unchanged", false},
		{"Sep 2026|DBT 4", "DBT 6", "changed", true},
		{"Officer Ana Ruiz|CEO", "CEO", "unchanged", false},
		{"Officer Ana Ruiz|CFO", "CFO", "unchanged", false},
		{"Old|x", notShown, "gone", true},
		{"Nov 2026|" + notShown, "DBT 9", "new", true},
	}
	for _, w := range want {
		r, ok := got[w.key]
		if !ok {
			t.Errorf("no row %q in %+v", w.key, rows)
			continue
		}
		if r.Now != w.now || r.ChangeWord != w.word || r.Changed != w.changed {
			t.Errorf("row %q = %+v, want now %q, %q, changed %v", w.key, r, w.now, w.word, w.changed)
		}
	}
	if len(rows) != len(want) {
		t.Errorf("%d rows, want %d: %v", len(rows), len(want), order)
	}
	if order[len(order)-1] != "Nov 2026" {
		t.Errorf("a fact only today has should come last: %v", order)
	}
}

func TestTabFacts(t *testing.T) {
	dbt := 12
	ident := &upstream.Identification{BusinessName: "Acme", City: "Columbus", State: "OH", Country: "US"}
	pay := PaymentsFacts(ident, []upstream.PaymentSummaryRow{
		{MonthReported: "2026-10", Accounts: 3, TotalDue: 1000, CurrentAmount: 900, PastDue30Days: 100, DBTIndex: upstream.Some(dbt)},
	}, nil)
	text := factText(pay)
	for _, want := range []string{"Name: Acme", "Months reported: 1", "Oct 2026: 3 accounts", "DBT 12", "Supplier categories, latest month: none"} {
		if !strings.Contains(text, want) {
			t.Errorf("payments facts lack %q:\n%s", want, text)
		}
	}
	age := 58
	off := OfficersFacts(nil, []upstream.NAICSCode{{Code: "452210", Name: "Department Stores"}},
		[]upstream.Officer{{FirstName: "Ana", MiddleInitial: "M", LastName: "Ruiz", Title: "CEO", Age: upstream.Some(age)}})
	text = factText(off)
	for _, want := range []string{"Name: unknown", "Industry codes: 452210 Department Stores", "Officers: 1", "Officer Ana M. Ruiz: CEO", "age 58"} {
		if !strings.Contains(text, want) {
			t.Errorf("officers facts lack %q:\n%s", want, text)
		}
	}
	fin := FinancialsFacts(ident, nil, "", upstream.PeerAnalysis{})
	text = factText(fin)
	for _, want := range []string{"Fiscal years: none", "Financial comments: none", "Peers' period: none", "Peers compared: 0"} {
		if !strings.Contains(text, want) {
			t.Errorf("financials facts lack %q:\n%s", want, text)
		}
	}
}

func factText(facts []Fact) string {
	var b strings.Builder
	for _, f := range facts {
		b.WriteString(f.Label + ": " + f.Value + "\n")
	}
	return b.String()
}

func TestBusinessTabNames(t *testing.T) {
	for _, name := range BusinessTabNames() {
		tab, ok := ParseBusinessTab(name)
		if !ok || tab.Name() != name {
			t.Errorf("ParseBusinessTab(%q) = %q, %v", name, tab, ok)
		}
	}
	if got := strings.Join(BusinessTabNames(), ","); got != "overview,payments,financials,officers" {
		t.Errorf("BusinessTabNames = %q", got)
	}
	for _, bad := range []string{"", "Payments", "../x", "peers"} {
		if _, ok := ParseBusinessTab(bad); ok {
			t.Errorf("ParseBusinessTab(%q) accepted", bad)
		}
	}
}

func TestControlsLabels(t *testing.T) {
	for _, c := range []struct {
		s    StatementControls
		want string
	}{
		{StatementControls{Count: "5", Sort: "D"}, "5 fiscal years, newest first"},
		{StatementControls{Count: "1", Sort: "A"}, "1 fiscal year, oldest first"},
		{StatementControls{Count: "5", Year: "2024", Sort: "D"}, "fiscal year 2024"},
	} {
		if got := c.s.Label(); got != c.want {
			t.Errorf("%+v: Label = %q, want %q", c.s, got, c.want)
		}
	}
	p := PeerControls{Quarter: "4"}
	if got := p.Label(); got != "Q4 of the latest year with statements, any SIC code, every risk level" {
		t.Errorf("default peers label = %q", got)
	}
	p = PeerControls{Year: "2024", Quarter: "2", Primary: true, SameRisk: true}
	if got := p.Label(); got != "Q2 of 2024, primary SIC code only, the same risk level" {
		t.Errorf("peers label = %q", got)
	}
}
