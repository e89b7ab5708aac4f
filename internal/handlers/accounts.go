package handlers

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/maypok86/otter/v2"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
)

// The team's accounts (issue 26): ledgers imported by any analyst of the
// deployment, the exposure they make, and the limits the team allows.
// Everything here is the team's (keyed by the service), unlike the
// workspace's personal rows; the store keeps who changed what.

// Accounts is the team's data (internal/store): every method works for
// the analyst's team, named by the service they sign in to.
type Accounts interface {
	ImportLedger(ctx context.Context, a store.Analyst, spec store.ImportSpec) (store.ImportRecord, error)
	Import(ctx context.Context, a store.Analyst, id int64) (store.ImportRecord, error)
	LedgerDates(ctx context.Context, a store.Analyst) ([]string, error)
	Accounts(ctx context.Context, a store.Analyst, asOf string) ([]store.Account, error)
	LedgerBalances(ctx context.Context, a store.Analyst, asOf string) ([]store.LedgerBalance, error)
	AccountsOfBusiness(ctx context.Context, a store.Analyst, business int32) ([]store.Account, error)
	Unlinked(ctx context.Context, a store.Analyst, limit int) ([]store.Account, error)
	LinkAccount(ctx context.Context, a store.Analyst, account string, business int32) error
	SaveLimitInputs(ctx context.Context, a store.Analyst, account string, in store.LimitInputs) error
	RecordScores(ctx context.Context, a store.Analyst, o store.Observation) (bool, error)
	KnownScores(ctx context.Context, a store.Analyst) (map[int32]map[store.Score]store.KnownScore, error)
	TeamBusinesses(ctx context.Context, a store.Analyst) (map[int32]store.TeamBusiness, error)
	RiskAsOf(ctx context.Context, a store.Analyst, month int) (map[int32]float64, error)
	RiskMonths(ctx context.Context, a store.Analyst, business int32) ([]store.ScoreMonth, error)
}

// teamMark is a business's score data already recorded for the team from
// these very cached copies.
type teamMark struct {
	team        string
	business    int32
	fingerprint uint64
}

// newTeamMarks bounds the marks like the rules' evaluation marks.
func newTeamMarks() (*otter.Cache[teamMark, struct{}], error) {
	return otter.New(&otter.Options[teamMark, struct{}]{
		MaximumSize:      100_000,
		ExpiryCalculator: otter.ExpiryWriting[teamMark, struct{}](2 * pageLife),
	})
}

// reportTeam is the team's version as a report reads it once, for its
// marks and its account tile; a failing read keeps nothing, and the page
// asks the store as before.
func (h *Handler) reportTeam(c *echo.Context) teamState {
	a := h.analyst(c)
	if h.accts == nil {
		return teamState{a: a}
	}
	ts, err := h.teamNow(h.wsCtx(c), a)
	if err != nil {
		h.logWorkspace(c, "team version", err)
		return teamState{a: a}
	}
	return ts
}

// recordTeamScores keeps a report's latest scores for the team, where they
// arrive, beside the alert rules: once per cached copy, so a warm report
// costs no query. A business linked to no account is asked about again
// only once the team's version (ts) moves: an import may link it. A
// failing store loses only this record, never the page.
func (h *Handler) recordTeamScores(c *echo.Context, ld *loaded, ts teamState, ref upstream.BusinessRef, hd *headerData, hist []upstream.CreditScoreHistoryRow) {
	if h.accts == nil {
		return
	}
	id, name := reportBusiness(ref, hd)
	if id == 0 {
		return
	}
	mark, fetched, done := h.teamCopy(ld, id)
	if done {
		return
	}
	// A business found linked to no account at the team's version is
	// not asked about again until the version moves: no import or link
	// has linked it meanwhile, so a warm report asks the store nothing.
	unlinked := strconv.Itoa(int(id))
	if ts.keep {
		if e, ok := h.teamData.GetIfPresent(teamKey{team: ts.a.Service, version: -1, kind: "unlinked", arg: unlinked}); ok {
			if l, ok := e.v.(latestEntry); ok && l.version == ts.version {
				return
			}
		}
	}
	var naics []upstream.NAICSCode
	if hd.naicsErr == nil {
		naics = hd.naics
	}
	o := views.TeamObservation(id, name, hist, naics, fetched)
	kept, err := h.accts.RecordScores(h.wsCtx(c), h.analyst(c), o)
	if err != nil {
		h.logWorkspace(c, "record team scores", err)
		return
	}
	switch {
	case kept:
		h.markTeamCopy(ld, mark)
	case ts.keep && (len(o.Latest) > 0 || len(o.Risk) > 0 || o.NAICS != ""):
		// Nothing was kept because no account is linked (an empty
		// observation says nothing of links).
		h.teamData.Set(teamKey{team: ts.a.Service, version: -1, kind: "unlinked", arg: unlinked},
			teamEntry{v: latestEntry{version: ts.version}, bytes: smallReadBytes})
	}
}

// teamCopy is the mark of the page's cached copies of business (0: the
// portfolio's), the time they were fetched, and whether they were already
// recorded for the team: each copy is recorded once, so a warm page costs
// no query.
func (h *Handler) teamCopy(ld *loaded, business int32) (mark teamMark, fetched time.Time, done bool) {
	rep := ld.rd.Report()
	mark = teamMark{team: h.service, business: business, fingerprint: rep.Fingerprint}
	if rep.Fingerprint != 0 {
		if _, ok := h.teamMarks.GetIfPresent(mark); ok {
			return mark, time.Time{}, true
		}
	}
	fetched = rep.FetchedAt
	if fetched.IsZero() {
		fetched = h.now()
	}
	return mark, fetched, false
}

// markTeamCopy remembers that the page's copies were recorded; copies
// with a failed call are recorded again next time.
func (h *Handler) markTeamCopy(ld *loaded, mark teamMark) {
	if rep := ld.rd.Report(); rep.Fingerprint != 0 && rep.Failed == 0 {
		h.teamMarks.Set(mark, struct{}{})
	}
}

// accountsError turns a store refusal into the analyst's words.
func accountsError(err error) error {
	if errors.Is(err, store.ErrAccountsFull) {
		return badInput("%s", storeMessage(err))
	}
	return workspaceError(err)
}

// noAccounts answers 404 when the handlers were built without the team's
// store.
func (h *Handler) noAccounts() error {
	if h.accts == nil {
		return echo.ErrNotFound
	}
	return nil
}

// ledgerMessage is a ledger refusal in the analyst's words.
func ledgerMessage(err error) string {
	return sentence(strings.TrimPrefix(err.Error(), "ledger: "))
}

// monthOf is a YYYY-MM-DD date's month as YYYYMM.
func monthOf(date string) int {
	var y, m, d int
	if _, err := fmt.Sscanf(date, "%d-%d-%d", &y, &m, &d); err != nil {
		return 0
	}
	return y*100 + m
}

// accountPanel is the overview's account tile, from the team's accounts of
// the business (kept with the team's version ts, so a warm report reads
// them from memory) and the scores the page received; nil without an
// account. Its state joins the kept page's key.
func (h *Handler) accountPanel(c *echo.Context, ld *loaded, ts teamState, ref upstream.BusinessRef, hd *headerData, hist []upstream.CreditScoreHistoryRow, histErr error) *views.AccountPanel {
	id, _ := reportBusiness(ref, hd)
	if h.accts == nil || id == 0 {
		return nil
	}
	ctx := h.wsCtx(c)
	accts, err := keptLatest(ctx, h, ts, "accounts of business", strconv.Itoa(int(id)), func(ctx context.Context) ([]store.Account, int, error) {
		accts, err := h.accts.AccountsOfBusiness(ctx, ts.a, id)
		return accts, accountsWeight(accts), err
	})
	if err != nil {
		h.logWorkspace(c, "accounts of business", err)
		return nil
	}
	var known map[store.Score]store.KnownScore
	if histErr == nil {
		known = views.TeamObservation(id, "", hist, nil, h.now()).Latest
	}
	p := views.NewAccountPanel(id, accts, known)
	if p != nil {
		ld.state += "\naccount:" + p.State()
	}
	return p
}
