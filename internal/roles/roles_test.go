package roles

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tab, err := Parse("TEAM_ROLES", "alice=manager:250000, bob=analyst:10000,carol=auditor\n# a comment\ndave=Analyst  # trailing\n\n", 500)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		user string
		want Assignment
	}{
		{"alice", Assignment{Manager, 250000}},
		{"bob", Assignment{Analyst, 10000}},
		{"carol", Assignment{Auditor, 0}},
		{"dave", Assignment{Analyst, 500}},  // named without authority: ANALYST_AUTHORITY
		{"erin", Assignment{Analyst, 500}},  // not named: an analyst
		{"Alice", Assignment{Analyst, 500}}, // names are exact
	} {
		if got := tab.Of(c.user); got != c.want {
			t.Errorf("Of(%q) = %+v, want %+v", c.user, got, c.want)
		}
	}
	want := []string{"alice=manager:250000", "bob=analyst:10000", "carol=auditor", "dave=analyst:500"}
	if got := tab.Lines(); !slices.Equal(got, want) {
		t.Errorf("Lines() = %q, want %q", got, want)
	}
	if got := tab.InForce(); got[len(got)-1] != "*=analyst:500" || len(got) != len(want)+1 {
		t.Errorf("InForce() = %q, want Lines() then *=analyst:500", got)
	}
	var none *Table
	if got := none.Of("x"); got != (Assignment{Analyst, 0}) {
		t.Errorf("nil table: Of = %+v, want an analyst without authority", got)
	}
}

// Every bad entry is named by its text and, in a file, its line.
func TestParseNamesBadLines(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"unknown role", "alice=manager:1,bob=boss", []string{`TEAM_ROLES: "bob=boss": role "boss" is not analyst, manager, admin or auditor`}},
		{"no equals", "alice", []string{`"alice": not name=role[:authority]`}},
		{"empty name", "=analyst", []string{`"=analyst": the user name is missing`}},
		{"bad authority", "bob=analyst:ten", []string{`"bob=analyst:ten": authority "ten" is not a whole number`}},
		{"negative authority", "bob=analyst:-5", []string{`authority "-5" is not a whole number`}},
		{"huge authority", "bob=manager:99999999999999999999", []string{`is not a whole number from 0 to`}},
		{"auditor authority", "carol=auditor:5", []string{`an auditor changes nothing, so has no authority: write carol=auditor`}},
		{"manager without", "alice=manager", []string{`a manager needs an authority, such as alice=manager:250000`}},
		{"admin without", "ann=admin", []string{`an admin needs an authority, such as ann=admin:250000`}},
		{"twice", "bob=analyst\nalice=manager:5\nbob=manager:5", []string{`TEAM_ROLES line 3: "bob=manager:5": bob is named twice (first in TEAM_ROLES line 1)`}},
		{"lines", "ok=analyst\nbad=x\n\nworse", []string{`TEAM_ROLES line 2: "bad=x"`, `TEAM_ROLES line 4: "worse"`}},
		{"control", "a\tb=analyst", []string{`control character`}},
		{"everyone", "*=manager:5", []string{`"*" stands for everyone not named`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("TEAM_ROLES", c.text, 0)
			if err == nil {
				t.Fatalf("Parse(%q) accepted it", c.text)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "roles: ") {
				t.Errorf("error %q does not start with \"roles: \"", err)
			}
		})
	}
	if _, err := Parse("TEAM_ROLES", "", -1); err == nil {
		t.Error("a negative analyst authority was accepted")
	}
}

func TestParseBound(t *testing.T) {
	var b strings.Builder
	for i := range maxEntries + 1 {
		b.WriteString("user" + strconv.Itoa(i) + "=analyst\n")
	}
	if _, err := Parse("TEAM_ROLES_FILE", b.String(), 0); err == nil || !strings.Contains(err.Error(), "at most 10000 users") {
		t.Errorf("past the bound: err = %v", err)
	}
}

func TestDemo(t *testing.T) {
	d := Demo(0)
	for user, want := range map[string]Assignment{
		"demo": {Admin, 250000}, "developer": {Analyst, 10000}, "ordinary": {Analyst, 0},
		"trade": {Auditor, 0}, "secure": {Admin, 1000000},
	} {
		if got := d.Of(user); got != want {
			t.Errorf("demo %s = %+v, want %+v", user, got, want)
		}
	}
}

func TestGrants(t *testing.T) {
	for _, c := range []struct {
		role Role
		act  Action
		want bool
	}{
		{Auditor, Read, true},
		{Auditor, ChangeWorkspace, false},
		{Auditor, ChangeAccounts, false},
		{Auditor, RequestLimit, false},
		{Auditor, Decide, false},
		{Analyst, ChangeWorkspace, true},
		{Analyst, RequestLimit, true},
		{Analyst, Decide, false},
		{Manager, Decide, true},
		{Manager, Action("unknown"), false},
	} {
		if got := c.role.May(c.act); got != c.want {
			t.Errorf("%s may %s = %v, want %v", c.role, c.act, got, c.want)
		}
	}
	if r := Auditor.Rule(ChangeWorkspace); !strings.Contains(r, "change nothing") {
		t.Errorf("auditor rule %q", r)
	}
	if !(Assignment{Manager, 100}).Covers(100) || (Assignment{Manager, 100}).Covers(101) || (Assignment{Auditor, 0}).Covers(0) {
		t.Error("Covers is wrong")
	}
}
