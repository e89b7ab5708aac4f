package store

import (
	"strconv"
	"strings"
	"time"
)

// The handlers write the CSV rows with encoding/csv, which does the quoting.

// WatchCSVHeader is the header row of watchlist.csv.
var WatchCSVHeader = []string{"business_id", "name", "watched_at"}

// NoteCSVHeader is the header row of a note's own columns in notes.csv.
// The note's id is left to the handlers, which write it as a link: a
// spreadsheet reads a 19-digit id as a number and rounds it.
var NoteCSVHeader = []string{"business_id", "author", "created_at", "updated_at", "text"}

// CSVRecord is the watch as a row of watchlist.csv.
func (w Watch) CSVRecord() []string {
	return []string{strconv.Itoa(int(w.BusinessID)), cell(w.Name), w.Since.Format(time.RFC3339)}
}

// CSVRecord is the note as a row of notes.csv.
func (n Note) CSVRecord() []string {
	return []string{strconv.Itoa(int(n.BusinessID)), cell(n.Author),
		n.Created.Format(time.RFC3339), n.Updated.Format(time.RFC3339), cell(n.Text)}
}

// cell keeps a spreadsheet from reading text as a formula: names come
// from the service and notes from people, and "=HYPERLINK(...)" in a cell
// would run when the file is opened. A leading apostrophe is what
// spreadsheets themselves use to mark text.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// CSVCell is cell for the team's downloads built outside the store.
func CSVCell(s string) string { return cell(s) }
