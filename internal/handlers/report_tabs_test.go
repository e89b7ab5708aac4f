package handlers

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"creditdash/internal/views"
)

// Every tab the report shows has exactly one row, in the order shown, and
// each row is whole: a forgotten row or field fails here, not as a page
// that silently shows another tab.
func TestReportTabsHaveOneRowEach(t *testing.T) {
	names := views.BusinessTabNames()
	if len(reportTabs) != len(names) {
		t.Fatalf("reportTabs has %d rows, views shows %d tabs (%v)", len(reportTabs), len(names), names)
	}
	for i, name := range names {
		tab, _ := views.ParseBusinessTab(name)
		rt, err := lookupTab(tab)
		if err != nil {
			t.Fatalf("lookupTab(%q): %v", name, err)
		}
		if reportTabs[i].tab != tab {
			t.Errorf("row %d is %q, views shows %q there", i, reportTabs[i].tab.Name(), name)
		}
		if rt.load == nil || rt.show == nil {
			t.Fatalf("row %q lacks a load or show", name)
		}
		// What a tab keeps reads back into the same tab, whole: kept
		// again, it is the same JSON.
		l := rt.load(noControls)
		first, err := json.Marshal(l.kept())
		if err != nil {
			t.Fatal(err)
		}
		back, err := readCopy(tab, first)
		if err != nil {
			t.Fatalf("row %q: its own copy does not read back: %v", name, err)
		}
		if got, want := typeName(back), typeName(l); got != want {
			t.Errorf("row %q: load makes %s, a copy reads back into %s", name, want, got)
		}
		if again, _ := json.Marshal(back.kept()); string(again) != string(first) {
			t.Errorf("row %q: a copy read back keeps %s, was %s", name, again, first)
		}
	}
}

// A tab missing from the table fails loudly: lookups answer an error and
// the show handler refuses to be routed.
func TestUnknownTabFailsLoudly(t *testing.T) {
	_, err := lookupTab(views.BusinessTab("ratings"))
	if err == nil || !strings.Contains(err.Error(), `"ratings"`) {
		t.Fatalf("lookupTab(ratings) = %v, want an error naming it", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("showTab(ratings) did not panic")
		}
	}()
	(&Handler{}).showTab(views.BusinessTab("ratings"))
}

// typeName names v's type, to tell one tab's data from another's.
func typeName(v any) string { return fmt.Sprintf("%T", v) }
