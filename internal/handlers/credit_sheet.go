package handlers

import (
	"time"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
)

// The credit sheet (views.CreditSheet) is filled here from a report
// tab's data, the same whether the data is a request's dated copy (the
// memo) or today's answer (the summary).

// notesData is the analyst's notes on a business as a request keeps
// them, newest first.
type notesData struct {
	Notes []noteCopy `json:"notes"`
}

// noteCopy is one note as kept.
type noteCopy struct {
	Author  string    `json:"author"`
	Text    string    `json:"text"`
	Written time.Time `json:"written"`
}

// notesEvidence is the name a request's copy of the notes is kept under.
const notesEvidence = "notes"

// keptNotes is how many of the requester's newest notes a request keeps.
const keptNotes = 20

// newNotesData keeps notes, newest first.
func newNotesData(notes []store.Note) notesData {
	d := notesData{Notes: make([]noteCopy, 0, len(notes))}
	for _, n := range notes {
		d.Notes = append(d.Notes, noteCopy{Author: n.Author, Text: n.Text, Written: n.Updated})
	}
	return d
}

// sheetOverview fills the scores from an overview's data.
func sheetOverview(s *views.CreditSheet, d *overviewData, src *views.SheetSource) {
	s.Overview = src
	s.Summary = views.NewSummaryView(d.Summary)
	var public *bool
	if d.Ident != nil {
		public = &d.Ident.Public
	}
	s.Cards = views.ScoreCards(d.History, public)
	s.ZSource = views.ZSource(d.History)
	if s.Event != nil {
		views.WithEvent(s.Cards, s.Event)
	}
}

// sheetPayments fills the payment trend and the worst supplier categories.
func sheetPayments(s *views.CreditSheet, d *paymentsData, src *views.SheetSource) {
	s.Payments = src
	s.Trend = views.PaymentTrend(d.Monthly)
	s.DBT = views.ExplainDBT(d.Monthly)
	s.WorstMonth, s.Worst = views.WorstCategories(d.SIC)
}

// sheetFinancials fills Z″, the key ratios and, when the data has them,
// the peers.
func sheetFinancials(s *views.CreditSheet, d *financialsData, src *views.SheetSource) error {
	s.Financials = src
	stmts := views.InOrder(d.Statements, false)
	e := views.ExplainZ(stmts, d.ZHistory)
	s.Z, s.ZReconcile = views.LatestZYear(e), e.Reconcile(d.ZHistory, stmts)
	if len(d.Peers.Ratios) == 0 {
		s.PeerNote = "No peer analysis for this business and period."
		return nil
	}
	peers, err := views.PeerView(d.Peers)
	if err != nil {
		return err
	}
	s.Peers = peers
	return nil
}

// sheetOfficers fills the officers; tenures are counted to now.
func sheetOfficers(s *views.CreditSheet, officers []upstream.Officer, now time.Time, src *views.SheetSource) {
	s.Officers = src
	s.OfficerRows, _ = views.FirstOfficers(views.OfficerRows(officers, now))
}

// sheetNotesFrom fills the notes.
func sheetNotesFrom(s *views.CreditSheet, d notesData, src *views.SheetSource) {
	s.NotesSource = src
	all := make([]views.SheetNote, 0, len(d.Notes))
	for _, n := range d.Notes {
		all = append(all, views.SheetNote{Author: n.Author, Text: n.Text, Written: views.DateTime(n.Written),
			WrittenISO: n.Written.UTC().Format(time.RFC3339)})
	}
	s.Notes, s.NotesOmitted = views.SheetNotes(all)
}
