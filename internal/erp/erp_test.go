package erp

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/store"
)

func ptr(v float64) *float64 { return &v }

// figures is an account's figures as the team's pages work them out.
func figures(acct, name string, balance, over90 float64, limit *float64) *credit.Figures {
	a := store.Account{Limit: limit}
	a.Account, a.Name, a.Balance, a.DaysOver90 = acct, name, balance, over90
	f := credit.NewFigures(a, nil)
	return &f
}

// TestStateOfNamesEachHold: each reason alone, in the fixed order when
// several hold, and none for an account within its limit and reviewed.
func TestStateOfNamesEachHold(t *testing.T) {
	today := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
	recent := &credit.LastReview{At: today.AddDate(0, 0, -10), Outcome: "keep"}
	old := &credit.LastReview{At: today.AddDate(0, -6, 0), Outcome: "keep"}
	held := &credit.LastReview{At: today.AddDate(0, 0, -1), Outcome: "hold"}
	def := figures("D-1", "Down Ltd", 500, 0, ptr(1000))
	def.Account.Default = &store.Default{Kind: "Chapter 11 filing"}
	all := figures("Z-1", "Zed", 2000, 0, ptr(1000))
	all.Account.Default = &store.Default{Kind: "Insolvency"}
	for _, c := range []struct {
		name      string
		f         *credit.Figures
		last      *credit.LastReview
		threshold float64
		want      []string
	}{
		{"within", figures("A-1", "Ann", 1050, 0, ptr(1000)), recent, 10, nil},
		{"over by more than the threshold", figures("A-2", "Bo", 1101, 0, ptr(1000)), recent, 10, []string{HoldOverLimit}},
		{"over by exactly the threshold", figures("A-3", "Cy", 1100, 0, ptr(1000)), recent, 10, nil},
		{"threshold zero", figures("A-4", "Di", 1000.01, 0, ptr(1000)), recent, 0, []string{HoldOverLimit}},
		{"no limit is never over", figures("A-5", "Ed", 1e9, 0, nil), recent, 0, nil},
		{"review overdue", figures("A-6", "Fi", 10, 0, ptr(1000)), old, 10, []string{HoldReviewOverdue}},
		{"never reviewed is due, not overdue", figures("A-7", "Gu", 10, 0, ptr(1000)), nil, 10, nil},
		{"a review held it", figures("A-8", "Ha", 10, 0, ptr(1000)), held, 10, []string{HoldReview}},
		{"default", def, recent, 10, []string{HoldDefault}},
		{"all of them", all, old, 10, []string{HoldDefault, HoldOverLimit, HoldReviewOverdue}},
	} {
		s := StateOf(c.f, c.last, 0, c.threshold, today)
		if !slices.Equal(s.Reasons, c.want) || s.Held() != (len(c.want) > 0) || s.Account != c.f.Account.Account {
			t.Errorf("%s: reasons %v, want %v", c.name, s.Reasons, c.want)
		}
	}
}

// TestWorksheetHoldsOnlyWhatChanged: against what was sent, a line for a
// new or changed limit, a new hold and a release; none for what the ERP
// already has; a limit gone is no line.
func TestWorksheetHoldsOnlyWhatChanged(t *testing.T) {
	now := []State{
		{Account: "C-9", Name: "Same", Limit: ptr(500)},
		{Account: "B-2", Name: "Raised", Limit: ptr(2000)},
		{Account: "A-1", Name: "New", Limit: ptr(1000)},
		{Account: "D-4", Name: "Held", Limit: ptr(100), Reasons: []string{HoldOverLimit}},
		{Account: "E-5", Name: "Released", Limit: ptr(100)},
		{Account: "F-6", Name: "Still held", Limit: ptr(100), Reasons: []string{HoldDefault}},
		{Account: "G-7", Name: "No limit, nothing sent"},
		{Account: "H-8", Name: "Limit gone"},
		{Account: "I-9", Name: "Cents", Limit: ptr(100.001)},
	}
	sent := map[string]store.ERPSent{
		"C-9": {Limit: ptr(500)}, "B-2": {Limit: ptr(1500)}, "D-4": {Limit: ptr(100)},
		"E-5": {Limit: ptr(100), Held: true}, "F-6": {Limit: ptr(100), Held: true}, "H-8": {Limit: ptr(300)},
		"I-9": {Limit: ptr(100)},
	}
	got := Worksheet(now, sent)
	var accts []string
	for _, l := range got {
		accts = append(accts, l.Account+":"+map[bool]string{true: "limit", false: "-"}[l.LimitChanged]+":"+l.Action)
	}
	want := []string{"A-1:limit:", "B-2:limit:", "D-4:-:hold", "E-5:-:release"}
	if !slices.Equal(accts, want) {
		t.Fatalf("worksheet %v, want %v", accts, want)
	}
	if got[1].Before == nil || *got[1].Before != 1500 || got[0].Before != nil {
		t.Errorf("before: %v %v", got[0].Before, got[1].Before)
	}
	// As the store records a line and reads it back, so a file made again
	// is the file that went.
	for _, l := range got {
		back := FromRecord(l.Record())
		if back.Account != l.Account || back.Action != l.Action || back.ReasonsText() != l.ReasonsText() || back.Held() != l.Held() ||
			back.LimitChanged != l.LimitChanged || LimitText(back.Limit) != LimitText(l.Limit) || LimitText(back.Before) != LimitText(l.Before) {
			t.Errorf("%s: recorded and read back as %+v", l.Account, back)
		}
	}
}

// TestEachSystemsFileParsesBack: every shape writes its header and a row
// per line that a CSV reader reads back cell for cell: the limit only when
// it changed, the system's own words for hold and release, and a name that
// a spreadsheet would take for a formula marked as text.
func TestEachSystemsFileParsesBack(t *testing.T) {
	lines := []Line{
		{State: State{Account: "A-1", Name: "Acme, Inc.", Limit: ptr(25000.5)}, LimitChanged: true, Before: ptr(20000)},
		{State: State{Account: "B-2", Name: "=HYPERLINK(\"x\")", Limit: ptr(900), Reasons: []string{HoldDefault, HoldOverLimit}}, Action: store.ERPHold},
		{State: State{Account: "C-3", Name: "Cé \"Quoted\"", Limit: ptr(100)}, Action: store.ERPRelease},
	}
	want := map[string][][]string{
		"netsuite": {{"External ID", "Company Name", "Credit Limit", "Hold"},
			{"A-1", "Acme, Inc.", "25000.5", ""}, {"B-2", "'=HYPERLINK(\"x\")", "", "On"}, {"C-3", "Cé \"Quoted\"", "", "Auto"}},
		"business-central": {{"No.", "Name", "Credit Limit (LCY)", "Blocked"},
			{"A-1", "Acme, Inc.", "25000.5", ""}, {"B-2", "'=HYPERLINK(\"x\")", "", "Ship"}, {"C-3", "Cé \"Quoted\"", "", " "}},
		"quickbooks": {{"Customer", "Company Name", "Credit Limit", "Note"},
			{"A-1", "Acme, Inc.", "25000.5", ""}, {"B-2", "'=HYPERLINK(\"x\")", "", "CREDIT HOLD: default; over-limit"}, {"C-3", "Cé \"Quoted\"", "", "Credit hold released"}},
		"xero": {{"*ContactName", "AccountNumber", "CreditLimit", "BlockSalesOverLimit"},
			{"Acme, Inc.", "A-1", "25000.5", ""}, {"'=HYPERLINK(\"x\")", "B-2", "", "Yes"}, {"Cé \"Quoted\"", "C-3", "", "No"}},
		"generic": {{"account", "name", "credit_limit", "limit_changed", "previous_limit", "hold", "reasons"},
			{"A-1", "Acme, Inc.", "25000.5", "yes", "20000", "", ""}, {"B-2", "'=HYPERLINK(\"x\")", "900", "no", "", "hold", "default; over-limit"},
			{"C-3", "Cé \"Quoted\"", "100", "no", "", "release", ""}},
	}
	if len(Systems) != len(want) {
		t.Fatalf("%d systems, want %d", len(Systems), len(want))
	}
	for _, s := range Systems {
		var b bytes.Buffer
		if err := s.Write(&b, lines); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
		if err != nil {
			t.Fatalf("%s: reading back: %v\n%s", s.Name, err, b.String())
		}
		if !slices.EqualFunc(rows, want[s.Name], slices.Equal) {
			t.Errorf("%s: read back\n%q\nwant\n%q", s.Name, rows, want[s.Name])
		}
		if got, ok := SystemNamed(s.Name); !ok || got.Label != s.Label || s.Note == "" {
			t.Errorf("SystemNamed(%q) = %v, %v", s.Name, got.Name, ok)
		}
	}
	if _, ok := SystemNamed("sap"); ok {
		t.Error("an unknown system was found")
	}
}
