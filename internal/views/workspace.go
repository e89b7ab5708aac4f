package views

import (
	"strconv"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/store"
)

// WatchState is the report header's watch button: nil when the business's
// service id is unknown (a CustomerId whose identification failed), so
// nothing is offered.
type WatchState struct {
	BusinessID int32
	Name       string
	Watched    bool
	// Error says why the last watch was refused (the list is full).
	Error string
}

// Action is where the button posts.
func (w WatchState) Action() string {
	if w.Watched {
		return reportURL(w.BusinessID) + "/unwatch"
	}
	return reportURL(w.BusinessID) + "/watch"
}

// WatchlistPage lists the watched businesses with their latest portfolio
// scores.
type WatchlistPage struct {
	Base
	Rows []WatchRow
	// ScoresProblem tells why the scores are missing (not loaded, failed).
	ScoresProblem *Problem
}

// WatchRow is one watched business.
type WatchRow struct {
	ID    int32
	Name  string
	URL   string
	Since string
	Pay   ScoreCell
	Z     ScoreCell
	// Risk and DBT are the values last seen on the business's report:
	// only a report carries them.
	Risk, DBT ScoreCell
}

// ScoreCell is a latest score with its zone, or why there is none.
type ScoreCell struct {
	Value string
	Zone  Zone
	Month string
	// Missing is the reason when Value is empty.
	Missing string
	// Word is the zone in plain words ("low risk"); "" reads the zone's
	// own label.
	Word string
}

// ZoneWord is the zone in plain words beside the number.
func (c ScoreCell) ZoneWord() string {
	if c.Word != "" {
		return c.Word
	}
	return c.Zone.Label
}

// WatchRows builds the watch list's rows; pay and z are nil when the
// histories were not loaded, and missing says why. Risk and DBT are the
// values last seen on each report (seen; nil when unknown).
func WatchRows(list []store.Watch, pay, z map[int32]credit.Latest, seen map[store.SeenKey]store.Seen, missing string) []WatchRow {
	rows := make([]WatchRow, 0, len(list))
	for _, w := range list {
		r := WatchRow{
			ID: w.BusinessID, Name: w.Name, URL: reportURL(w.BusinessID), Since: Date(w.Since),
			Pay: scoreCell(PortfolioPay, pay, w.BusinessID, missing),
			Z:   scoreCell(PortfolioZ, z, w.BusinessID, missing),
		}
		r.Risk, _ = seenCell(ScoreRisk, seen, w.BusinessID)
		r.DBT, _ = seenCell(ScoreDBT, seen, w.BusinessID)
		rows = append(rows, r)
	}
	return rows
}

func scoreCell(kind PortfolioScore, m map[int32]credit.Latest, id int32, missing string) ScoreCell {
	if m == nil {
		return ScoreCell{Missing: missing}
	}
	l, ok := m[id]
	if !ok {
		return ScoreCell{Missing: "no score in the portfolio history"}
	}
	z := kind.Zone(l.Value)
	return ScoreCell{Value: kind.Format(l.Value), Zone: z, Month: Month(l.Year, l.Month), Word: PlainPortfolioZone(kind, z)}
}

// NotesSection is the notes part of a report overview: one page of
// them, newest first.
type NotesSection struct {
	BusinessID int32
	Notes      []NoteView
	// Page is the page shown (1 is the newest notes); More says older
	// notes follow.
	Page int
	More bool
	// Draft is what the analyst typed into the new-note form when it was
	// refused, with Error saying why.
	Draft string
	Error string
	// Problem tells that the notes could not be read.
	Problem *Problem
}

// Action is where a new note is posted.
func (n NotesSection) Action() string { return reportURL(n.BusinessID) + "/notes" }

// MaxNoteLen is the form's maxlength.
func (NotesSection) MaxNoteLen() string { return strconv.Itoa(store.MaxNoteLen) }

// NewerURL and OlderURL are the links to the neighbouring pages of notes,
// "" when there is none.
func (n NotesSection) NewerURL() string {
	switch {
	case n.Page <= 1:
		return ""
	case n.Page == 2:
		return reportURL(n.BusinessID) + "#notes"
	}
	return reportURL(n.BusinessID) + "?notes=" + strconv.Itoa(n.Page-1) + "#notes"
}

// OlderURL: see NewerURL.
func (n NotesSection) OlderURL() string {
	if !n.More {
		return ""
	}
	return reportURL(n.BusinessID) + "?notes=" + strconv.Itoa(max(n.Page, 1)+1) + "#notes"
}

// NoteView is one note as the overview shows it.
type NoteView struct {
	ID      string
	Author  string
	Text    string
	Written string
	// WrittenISO is the time for a <time> element.
	WrittenISO string
	Edited     string
	// Own notes offer edit and delete.
	Own bool
}

// NoteEditPath is the address of one note's own edit form.
func NoteEditPath(id int64) string { return "/notes/" + strconv.FormatInt(id, 10) + "/edit" }

// EditAction and DeleteAction are the note's forms' targets.
func (n NoteView) EditAction() string   { return "/notes/" + n.ID + "/edit" }
func (n NoteView) DeleteAction() string { return "/notes/" + n.ID + "/delete" }

// NoteViews formats notes for the overview; user is the signed-in user.
func NoteViews(notes []store.Note, user string) []NoteView {
	out := make([]NoteView, 0, len(notes))
	for _, n := range notes {
		v := NoteView{ID: strconv.FormatInt(n.ID, 10), Author: n.Author, Text: n.Text,
			Written: DateTime(n.Created), WrittenISO: n.Created.UTC().Format(time.RFC3339), Own: n.Author == user}
		if n.Edited() {
			v.Edited = DateTime(n.Updated)
		}
		out = append(out, v)
	}
	return out
}

// NoteEditPage is the form that edits one note, refilled after a refusal.
type NoteEditPage struct {
	Base
	Note  NoteView
	Text  string
	Error string
	// ReportURL is the note's report; "" when the note could not be read.
	ReportURL string
}

// MaxNoteLen is the longest note, for the textarea's maxlength.
func (NoteEditPage) MaxNoteLen() string { return strconv.Itoa(store.MaxNoteLen) }

// Changed is a business whose score moved since the analyst last looked.
type Changed struct {
	Name, URL string
	Score     string
	Was, Now  string
	NowZone   Zone
	SeenAt    string
	Worse     bool
}

// ChangedSince compares the latest portfolio scores with what the analyst
// last saw; a business seen for the first time is not "changed".
func ChangedSince(kind PortfolioScore, latest map[int32]credit.Latest, names map[int32]string, seen map[store.SeenKey]store.Seen) []Changed {
	var out []Changed
	sc := kind.Score()
	for id, l := range latest {
		s, ok := seen[store.SeenKey{BusinessID: id, Score: sc}]
		if !ok || kind.Format(s.Value) == kind.Format(l.Value) {
			continue
		}
		out = append(out, Changed{Name: names[id], URL: reportURL(id), Score: kind.Name(),
			Was: kind.Format(s.Value), Now: kind.Format(l.Value), NowZone: kind.Zone(l.Value),
			SeenAt: Date(s.At), Worse: l.Value < s.Value})
	}
	return out
}

// NavWorkspace is the navigation area of the workspace's pages.
const NavWorkspace Nav = "workspace"

// WorkspaceSettingsPage offers the downloads and deleting everything.
type WorkspaceSettingsPage struct {
	Base
	// Confirm shows the confirmation step.
	Confirm bool
	// Typed is what the analyst typed into the confirmation, when refused.
	Typed string
	Error string
}

// WorkspaceBar is what the layout shows of the workspace.
type WorkspaceBar struct {
	Unread int
	// Watch is the report's watch button, nil elsewhere or when the
	// business's service id is unknown.
	Watch *WatchState
	// Notes are the overview's notes, nil on other pages.
	Notes *NotesSection
	// SaveSnapshot is a report tab's "Save a dated copy" form, nil for
	// none.
	SaveSnapshot *SnapshotForm
	// Snapshot marks a page rendered from a dated copy.
	Snapshot *SnapshotMark
	// Changed are the home page's businesses whose scores moved since
	// the analyst last looked; ChangedKnown is false on a first visit.
	Changed      []Changed
	ChangedKnown bool
}

// IDText is the row's business id as text, for forms and links.
func (r WatchRow) IDText() string { return strconv.FormatInt(int64(r.ID), 10) }
