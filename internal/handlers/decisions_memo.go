package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/credit"
	"creditdash/internal/middleware"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// extraEvidenceTabs are the report tabs a request keeps a copy of when the
// hourly budget allows, for the memo's officers, Z″ and peers; without
// them the request still stands on its overview and payments.
var extraEvidenceTabs = []views.BusinessTab{views.TabFinancials, views.TabOfficers}

// extraEvidence are the copies a request keeps beyond its overview and
// payments: the financials and officers tabs when the service answers
// within the budget, and the requester's newest notes on the business.
// A copy that cannot be had is left out and logged; the memo says so.
func (h *Handler) extraEvidence(c *echo.Context, a store.Analyst, id int32) []store.Evidence {
	var out []store.Evidence
	for _, tab := range extraEvidenceTabs {
		d, ld, err := h.loadTab(c, tab, id, func(string) string { return "" })
		if err != nil {
			h.log.Info("request evidence left out", "request_id", middleware.RequestID(c), "tab", tab.Name(), "err", err)
			continue
		}
		data, err := json.Marshal(d.kept())
		if err != nil {
			continue
		}
		fetched := ld.rd.Report().FetchedAt
		if fetched.IsZero() {
			fetched = h.now()
		}
		out = append(out, store.Evidence{Tab: tab.Name(), Fetched: fetched, Data: data})
	}
	notes, _, err := h.store.NotesPage(h.wsCtx(c), a, id, 1, keptNotes)
	if err != nil {
		h.logWorkspace(c, "request notes", err)
		return out
	}
	if data, err := json.Marshal(newNotesData(notes)); err == nil {
		out = append(out, store.Evidence{Tab: notesEvidence, Fetched: h.now(), Data: data})
	}
	return out
}

// memoPath is a request's credit memo.
func memoPath(id int64) string { return views.DecisionPath(id) + "/memo" }

// showDecisionMemo is /decisions/{id}/memo: the credit memo, put together
// from the request's record (its dated copies and the calculator's
// result) without a service call.
func (h *Handler) showDecisionMemo(c *echo.Context) error {
	r, err := h.decision(c)
	if err != nil {
		return err
	}
	p := views.MemoPage{ID: fmt.Sprint(r.ID), DecisionURL: views.DecisionPath(r.ID), Account: r.Account,
		Amount: views.Amount(r.Amount), OldLimit: views.Dash, Status: views.StatusLabel(r.Status), Reason: r.Reason,
		Steps: views.NewDecisionSteps(r)}
	if r.OldLimit != nil {
		p.OldLimit = views.Amount(*r.OldLimit)
	}
	if r.Calculator != "" {
		p.Calculator = strings.Split(r.Calculator, "\n")
	}
	if r.Status == store.StatusApproved {
		p.Approvers = r.DecidedBy
	}
	now := h.now()
	p.Printed, p.PrintedISO = views.DateTime(now), now.UTC().Format(time.RFC3339)
	p.Sheet.Absent = "Not in this record: the request kept no copy of it."
	p.Sheet.Name = "Business " + fmt.Sprint(r.BusinessID)
	if err := h.fillMemoSheet(c, r, &p.Sheet); err != nil {
		return err
	}
	if err := h.sheetExposure(c, &p.Sheet, func(f credit.Figures) bool { return f.Account.Account == r.Account }); err != nil {
		return err
	}
	if p.Application, err = h.memoApplication(c, r.ID); err != nil {
		return err
	}
	p.Base = h.base(c, nil, "Credit memo · request "+p.ID+" · "+r.Account, views.NavAccounts)
	return h.render(c, http.StatusOK, templates.CreditMemo(p))
}

// fillMemoSheet fills the sheet from each copy the request keeps.
func (h *Handler) fillMemoSheet(c *echo.Context, r store.LimitRequest, s *views.CreditSheet) error {
	for _, e := range r.Evidence {
		full, err := h.store.RequestEvidence(c.Request().Context(), h.analyst(c), r.ID, e.Tab)
		if err != nil {
			return decisionsError(err)
		}
		bad := func(err error) error {
			return fmt.Errorf("handlers: request %d evidence %s: %w", r.ID, e.Tab, err)
		}
		if e.Tab == notesEvidence {
			var d notesData
			if err := json.Unmarshal(full.Data, &d); err != nil {
				return bad(err)
			}
			sheetNotesFrom(s, d, views.NewSheetSource("requester's notes kept with the request", "", full.Fetched))
			continue
		}
		tab, ok := views.ParseBusinessTab(e.Tab)
		if !ok {
			continue
		}
		d, err := readCopy(tab, full.Data)
		if err != nil {
			return bad(err)
		}
		src := views.NewSheetSource(strings.ToLower(tab.Label())+" copy", views.DecisionPath(r.ID)+"/evidence/"+e.Tab, full.Fetched)
		if hd := d.header(); hd.identification() != nil || len(hd.naics) > 0 {
			s.FillHeader(upstream.ByID(r.BusinessID), hd.identification(), hd.naics)
		}
		if err := d.sheet(s, src, full.Fetched); err != nil {
			return bad(err)
		}
	}
	return nil
}

// sheetExposure fills the sheet's exposure with the team's accounts that
// keep selects: their figures of the newest ledger, as /accounts shows
// them, and the limits approved for each, newest decision first. The
// figures are the team's today, not the request's: the sheet names the
// ledger's date.
func (h *Handler) sheetExposure(c *echo.Context, s *views.CreditSheet, keep func(credit.Figures) bool) error {
	ctx, a := c.Request().Context(), h.analyst(c)
	all, err := h.teamFigures(ctx, a, "")
	if err != nil {
		return accountsError(err)
	}
	var kept []credit.Figures
	for _, f := range all {
		if keep(f) {
			kept = append(kept, f)
		}
	}
	if len(kept) == 0 {
		s.ExposureNote = "Not one of the team's accounts: the team has no balance or limit for it."
		return nil
	}
	if len(kept) > views.SheetMaxAccounts {
		s.ExposureMore, kept = len(kept)-views.SheetMaxAccounts, kept[:views.SheetMaxAccounts]
	}
	for _, f := range kept {
		approved, more, err := h.store.RequestsPage(ctx, a, store.RequestFilter{Account: f.Account.Account, Status: store.StatusApproved},
			store.RequestCursor{}, store.MaxPage)
		if err != nil {
			return decisionsError(err)
		}
		// Newest decision first: the one that set the limit in force.
		slices.SortStableFunc(approved, func(x, y store.LimitRequest) int { return y.DecidedAt.Compare(x.DecidedAt) })
		s.Exposure = append(s.Exposure, views.NewSheetExposure(f, approved, more))
	}
	return nil
}

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
