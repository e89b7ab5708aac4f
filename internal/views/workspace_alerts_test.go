package views

import (
	"slices"
	"strings"
	"testing"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

func TestFoldersOf(t *testing.T) {
	got := FoldersOf([]upstream.PortfolioBusiness{
		{BusinessID: 1001, FolderID: 101}, {BusinessID: 1002, FolderID: 102},
		{BusinessID: 1001, FolderID: 104}, {BusinessID: 1001, FolderID: 101},
	})
	if !slices.Equal(got[1001], []int{101, 104}) || !slices.Equal(got[1002], []int{102}) || got[1003] != nil {
		t.Errorf("FoldersOf = %v, want 1001 in 101 and 104 once each, 1002 in 102", got)
	}
}

func TestRuleTextNamesTheFolder(t *testing.T) {
	r := store.RuleSpec{Scope: store.ScopeFolder, FolderID: 101, TargetName: "Retail watchlist", Score: store.ScoreRisk, Condition: store.Below, Threshold: 3}
	if got := RuleText(r); got != "Risk below 3 in folder Retail watchlist" {
		t.Errorf("RuleText = %q", got)
	}
	r.TargetName = ""
	if got := RuleText(r); got != "Risk below 3 in folder 101" {
		t.Errorf("RuleText without a name = %q", got)
	}
	opts := RuleFolders([]upstream.Folder{{FolderID: 101, FolderName: "Retail watchlist"}, {FolderID: 7}})
	if len(opts) != 2 || opts[0] != (FolderOption{"101", "Retail watchlist"}) || opts[1] != (FolderOption{"7", "Folder 7"}) {
		t.Errorf("RuleFolders = %+v", opts)
	}
}

// A fall rule reads as the form offers it: the score worsens, DBT in days.
func TestRuleTextOfAFall(t *testing.T) {
	for _, c := range []struct {
		r    store.RuleSpec
		want string
	}{
		{store.RuleSpec{Scope: store.ScopePortfolio, Score: store.ScoreDBT, Condition: store.Fall, Threshold: 10}, "DBT worsens by at least 10 days in a month"},
		{store.RuleSpec{Scope: store.ScopePortfolio, Score: store.ScoreZ, Condition: store.Fall, Threshold: 0.5}, "Z″ worsens by at least 0.50 points in a month"},
		{store.RuleSpec{Scope: store.ScopePortfolio, Score: store.ScorePay, Condition: store.Fall, Threshold: 1}, "Pay worsens by at least 1 point in a month"},
		{store.RuleSpec{Scope: store.ScopePortfolio, Score: store.ScoreDBT, Condition: store.Fall, Threshold: 1}, "DBT worsens by at least 1 day in a month"},
	} {
		if got := RuleText(c.r); !strings.HasPrefix(got, c.want) {
			t.Errorf("RuleText = %q, want it to start %q", got, c.want)
		}
	}
}

// A business rule without a name takes its alerts' business name, as does
// one saved as "business 1004" before names were left empty; a named rule
// keeps its own, and a nameless alert names its business by id.
func TestRuleRowsNameFromAlerts(t *testing.T) {
	rule := func(id int64, name string) store.Rule {
		return store.Rule{ID: id, RuleSpec: store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 1004, TargetName: name,
			Score: store.ScoreRisk, Condition: store.Below, Threshold: 3}}
	}
	alerts := []store.Alert{{Triggered: store.Triggered{BusinessID: 1004, BusinessName: "Redrock Freight Lines Inc"}}}
	rows := RuleRows([]store.Rule{rule(1, ""), rule(2, "business 1004"), rule(3, "Redrock (watched)")}, alerts)
	for i, want := range []string{"Redrock Freight Lines Inc", "Redrock Freight Lines Inc", "Redrock (watched)"} {
		if !strings.HasSuffix(rows[i].Text, " on "+want) {
			t.Errorf("rule %d reads %q, want it to end on %q", i+1, rows[i].Text, want)
		}
	}
	if got := RuleRows([]store.Rule{rule(1, "")}, nil)[0].Text; !strings.HasSuffix(got, " on business 1004") {
		t.Errorf("a rule without name or alerts reads %q, want it to name business 1004", got)
	}
	nameless := []store.Alert{{Triggered: store.Triggered{BusinessID: 1005, BusinessName: " "}}}
	if got := AlertRows(nameless)[0].Business; got != "Business 1005" {
		t.Errorf("a nameless alert's business reads %q, want Business 1005", got)
	}
}
