package store

import (
	"slices"
	"testing"
	"time"
)

// TestCSVRecords: rows line up with their headers, and text that a
// spreadsheet would run as a formula is marked as text.
func TestCSVRecords(t *testing.T) {
	at := time.Date(2025, 3, 1, 9, 30, 0, 0, time.UTC)
	w := Watch{BusinessID: 1001, Name: `=HYPERLINK("http://x","y")`, Since: at}
	if got, want := w.CSVRecord(), []string{"1001", `'=HYPERLINK("http://x","y")`, "2025-03-01T09:30:00Z"}; !slices.Equal(got, want) {
		t.Errorf("Watch.CSVRecord = %q, want %q", got, want)
	}
	n := Note{ID: 7, BusinessID: 1002, Author: "alice", Text: "-2 points\nsince May", Created: at, Updated: at.Add(time.Hour)}
	want := []string{"1002", "alice", "2025-03-01T09:30:00Z", "2025-03-01T10:30:00Z", "'-2 points\nsince May"}
	if got := n.CSVRecord(); !slices.Equal(got, want) {
		t.Errorf("Note.CSVRecord = %q, want %q", got, want)
	}
	if len(WatchCSVHeader) != len(w.CSVRecord()) || len(NoteCSVHeader) != len(n.CSVRecord()) {
		t.Error("a header and its rows differ in length")
	}
	if got := cell("Harbor Freight"); got != "Harbor Freight" {
		t.Errorf("cell(plain) = %q", got)
	}
	// Blanks before the sign, and fullwidth signs, are looked past and at.
	for _, f := range []string{" =1+1", "\u00a0=HYPERLINK(1)", "\n\n@SUM(A1)", "＝1+1", " ＋cmd", "－2", "＠x", "\r\n=1"} {
		if got := cell(f); got != "'"+f {
			t.Errorf("cell(%q) = %q, want it marked", f, got)
		}
	}
	for _, f := range []string{" plain", "\u00a0", "a=b", "© 2026"} {
		if got := cell(f); got != f {
			t.Errorf("cell(%q) = %q, want it as it is", f, got)
		}
	}
}
