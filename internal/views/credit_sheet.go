package views

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"creditdash/internal/upstream"
)

// A credit sheet is the printable one-to-two-page account of a business:
// the credit memo of a limit request (from the dated copies the request
// keeps) and a business's credit summary (from today's report) share it,
// so the two print alike and are built once.

// SheetSource is the dated copy (or today's report) a section's figures
// come from, linked so a reader can open it.
type SheetSource struct {
	// Label names it: "overview copy", "today's report".
	Label, URL string
	// AsOf is when the service sent the data.
	AsOf, AsOfISO string
}

// NewSheetSource is the source named label at url, fetched at.
func NewSheetSource(label, url string, at time.Time) *SheetSource {
	return &SheetSource{Label: label, URL: url, AsOf: DateTime(at), AsOfISO: at.UTC().Format(time.RFC3339)}
}

// TrendRow is one month of the payment trend: the total due, the current
// and 91+ shares and DBT with its zone.
type TrendRow struct {
	Month, TotalDue, Current, Over90, DBT string
	DBTZone                               Zone
}

// SheetNote is an analyst's note as a sheet prints it.
type SheetNote struct {
	Author, Text, Written, WrittenISO string
}

// CreditSheet is what a credit memo and a credit summary print. A nil
// source means the record holds no such copy; the section says so.
type CreditSheet struct {
	Name, Location string
	Facts          []string
	NAICS          []NAICSItem
	Summary        SummaryView
	// Event is a credit event reported in the news, nil when none is known.
	Event *CreditEvent

	Overview *SheetSource
	Cards    []ScoreCard
	// ZSource names the overview's Z″ period and source.
	ZSource string

	Payments *SheetSource
	// Trend is the newest months of payments, newest first.
	Trend []TrendRow
	DBT   DBTExplanation
	// Worst are the supplier categories with the highest DBT in WorstMonth.
	Worst      []AgingRow
	WorstMonth string

	Financials *SheetSource
	// Z is the newest fiscal year's Z″ worked out, nil without statements.
	Z          *ZYear
	ZReconcile string
	// Peers is the business among its peers; PeerNote says why there is
	// no table when Peers.Rows is empty.
	Peers    PeerSection
	PeerNote string

	Officers     *SheetSource
	OfficerRows  []OfficerRow
	NotesSource  *SheetSource
	Notes        []SheetNote
	NotesOmitted int
	// Absent is what a section without a source says.
	Absent string
	// Exposure is the team's own accounts of the business (the memo's one
	// account; at most SheetMaxAccounts for a summary); ExposureNote says
	// why there is none, "" to leave the section out.
	Exposure     []SheetExposure
	ExposureNote string
	// ExposureMore counts the business's accounts left off.
	ExposureMore int
}

// SheetTrendMonths is how many months of payments a sheet prints.
const SheetTrendMonths = 12

// SheetWorstCategories is how many supplier categories a sheet names.
const SheetWorstCategories = 3

// SheetMaxNotes is how many notes a sheet prints, newest first.
const SheetMaxNotes = 5

// SheetMaxOfficers is how many officers a sheet prints.
const SheetMaxOfficers = 8

// PaymentTrend is the newest months of the monthly payments, newest first.
func PaymentTrend(rows []upstream.PaymentSummaryRow) []TrendRow {
	rows = sortedPayments(rows, false)
	out := make([]TrendRow, 0, min(len(rows), SheetTrendMonths))
	for _, r := range rows[:min(len(rows), SheetTrendMonths)] {
		a := agingRow(r)
		out = append(out, TrendRow{Month: a.Month, TotalDue: a.TotalDue, Current: a.Buckets[0].Percent,
			Over90: a.Buckets[4].Percent, DBT: a.DBT, DBTZone: a.DBTZone})
	}
	return out
}

// WorstCategories are the newest month's supplier categories with the
// highest DBT (missing DBT last), at most SheetWorstCategories.
func WorstCategories(rows []upstream.PaymentSummaryRow) (month string, out []AgingRow) {
	rows = sortedPayments(rows, false)
	if len(rows) == 0 {
		return "", nil
	}
	var same []upstream.PaymentSummaryRow
	for _, r := range rows {
		if r.MonthReported == rows[0].MonthReported {
			same = append(same, r)
		}
	}
	dbt := func(r upstream.PaymentSummaryRow) int {
		if !r.DBTIndex.OK {
			return -1
		}
		return r.DBTIndex.V
	}
	slices.SortStableFunc(same, func(a, b upstream.PaymentSummaryRow) int {
		if c := cmp.Compare(dbt(b), dbt(a)); c != 0 {
			return c
		}
		return cmp.Compare(b.TotalDue, a.TotalDue)
	})
	for _, r := range same[:min(len(same), SheetWorstCategories)] {
		out = append(out, agingRow(r))
	}
	return paymentMonth(rows[0]), out
}

// LatestZYear is the newest fiscal year of an explanation, nil without one.
func LatestZYear(e ZExplanation) *ZYear {
	if len(e.Years) == 0 {
		return nil
	}
	y := e.Years[0]
	return &y
}

// FirstOfficers are at most SheetMaxOfficers officers; omitted counts the rest.
func FirstOfficers(rows []OfficerRow) (out []OfficerRow, omitted int) {
	n := min(len(rows), SheetMaxOfficers)
	return rows[:n], len(rows) - n
}

// SheetNotes are notes as a sheet prints them, newest first, at most
// SheetMaxNotes; omitted counts the rest.
func SheetNotes(all []SheetNote) (out []SheetNote, omitted int) {
	n := min(len(all), SheetMaxNotes)
	return all[:n], len(all) - n
}

// FillHeader names and places the business from its header data.
func (s *CreditSheet) FillHeader(ref upstream.BusinessRef, ident *upstream.Identification, naics []upstream.NAICSCode) {
	h := NewBusinessHeader(ref, ident, naics, TabOverview, "")
	s.Name, s.Location, s.Facts, s.NAICS = h.Name, h.Location, h.Facts, h.NAICS
}

// SummaryURL is the business's credit summary, to print; "" when the
// business's id is not known.
func (h BusinessHeader) SummaryURL() string {
	for _, f := range h.Facts {
		if id, ok := strings.CutPrefix(f, "Business id "); ok {
			return "/businesses/" + id + "/summary"
		}
	}
	return ""
}

// SheetNotesOf are the report's notes as a sheet prints them.
func SheetNotesOf(notes []NoteView) []SheetNote {
	out := make([]SheetNote, 0, len(notes))
	for _, n := range notes {
		out = append(out, SheetNote{Author: n.Author, Text: n.Text, Written: n.Written, WrittenISO: n.WrittenISO})
	}
	return out
}
