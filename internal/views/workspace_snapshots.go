package views

import (
	"strconv"
	"time"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// SnapshotMark says a page shows a dated copy, not today's data.
type SnapshotMark struct {
	ID         string
	BusinessID int32
	Name       string
	// Tab is the report tab the copy keeps ("payments"), TabLabel its
	// name as people read it ("Payments").
	Tab, TabLabel string
	// AsOf is when the service sent the data, for "as of <date>".
	AsOf    string
	AsOfISO string
	Saved   string
	Size    string
	// EvidenceOf is the page of the limit request that keeps this copy as
	// its evidence; "" for a copy of the analyst's own.
	EvidenceOf string
}

// URL, CompareURL, ReportURL and DeleteURL are the copy's pages, today's
// report tab and the copy's delete form's target.
func (m SnapshotMark) URL() string        { return "/snapshots/" + m.ID }
func (m SnapshotMark) CompareURL() string { return "/snapshots/" + m.ID + "/compare" }
func (m SnapshotMark) ReportURL() string {
	t, _ := ParseBusinessTab(m.Tab)
	return BusinessPath(upstream.ByID(m.BusinessID), t)
}
func (m SnapshotMark) DeleteURL() string { return "/snapshots/" + m.ID + "/delete" }

// NewSnapshotMark describes a stored copy. A tab this build does not know
// keeps its stored name as its label.
func NewSnapshotMark(s store.SnapshotInfo) *SnapshotMark {
	label := s.Tab
	if t, ok := ParseBusinessTab(s.Tab); ok {
		label = t.Label()
	}
	return &SnapshotMark{ID: strconv.FormatInt(s.ID, 10), BusinessID: s.BusinessID, Name: s.BusinessName,
		Tab: s.Tab, TabLabel: label,
		AsOf: DateTime(s.Fetched), AsOfISO: s.Fetched.UTC().Format(time.RFC3339), Saved: DateTime(s.Saved),
		Size: strconv.Itoa(max(1, (s.Size+1023)/1024)) + " kB"}
}

// SnapshotForm is a report tab's "Save a dated copy" button: where it
// posts, the tab it keeps, and the values of the tab's own controls, so
// the copy keeps what the tab shows.
type SnapshotForm struct {
	Action string
	Tab    string
	Fields []HiddenField
}

// HiddenField is one name and value a form sends along unseen.
type HiddenField struct {
	Name, Value string
}

// NewSnapshotForm is the save form of a tab of business id's report.
func NewSnapshotForm(id int32, tab BusinessTab, fields ...HiddenField) *SnapshotForm {
	return &SnapshotForm{Action: reportURL(id) + "/snapshots", Tab: tab.Name(), Fields: fields}
}

// SnapshotsPage lists the analyst's dated copies.
type SnapshotsPage struct {
	Base
	Rows []SnapshotMark
}

// SnapshotRows formats the list, newest first as the store gives it.
func SnapshotRows(list []store.SnapshotInfo) []SnapshotMark {
	out := make([]SnapshotMark, 0, len(list))
	for _, s := range list {
		out = append(out, *NewSnapshotMark(s))
	}
	return out
}

// SnapshotComparePage puts a dated copy beside today's data.
type SnapshotComparePage struct {
	Base
	Snapshot SnapshotMark
	// Changed are the facts that differ (changed, new or gone), shown
	// first; Unchanged are folded below them (SetRows sorts them).
	Changed, Unchanged []ThenNowRow
	Summary            CompareSummary
	// TodayProblem tells why today's data is missing.
	TodayProblem *Problem
}

// ThenNowRow is one fact then and now.
type ThenNowRow struct {
	Label      string
	Then, Now  string
	Changed    bool
	ChangeWord string // "changed", "unchanged", "new" (today only), "gone" (then only)
	// ThenParts and NowParts are the values split into their parts, those
	// that differ marked (a changed aging row marks the buckets that moved).
	ThenParts, NowParts []ValuePart
}
