package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/alerts"
	"creditdash/internal/credit"
	"creditdash/internal/ledger/demohistory"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/simulator"
	"creditdash/internal/views"
	"creditdash/templates"
)

// The team's accounts (issue 26): ledgers imported by any analyst of the
// deployment, the exposure they make, and the limits the team allows.
// Everything here is the team's (keyed by the service), unlike the
// workspace's personal rows; the store keeps who changed what.

// teamOf is the team's version as the page ld loaded reads it, once: the
// score record's mark, the account tile and the header's decisions
// waiting are kept under it, so a warm report reads none of them. A
// failing read keeps nothing, and the page asks the store as before.
func (h *Handler) teamOf(c *echo.Context, ld *loaded) teamState {
	if ld != nil && ld.team != nil {
		return *ld.team
	}
	ts := teamState{a: h.analyst(c)}
	if now, err := h.teamNow(h.wsCtx(c), ts.a); err != nil {
		h.logWorkspace(c, "team version", err)
	} else {
		ts = now
	}
	if ld != nil {
		ld.team = &ts
	}
	return ts
}

// accountsError turns a store refusal into the analyst's words.
func accountsError(err error) error {
	if errors.Is(err, store.ErrAccountsFull) {
		return badInput("%s", storeMessage(err))
	}
	return workspaceError(err)
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
func (h *Handler) accountPanel(c *echo.Context, ld *loaded, ref upstream.BusinessRef, hd *headerData, hist []upstream.CreditScoreHistoryRow, histErr error) *views.AccountPanel {
	id, _ := reportBusiness(ref, hd)
	if id == 0 {
		return nil
	}
	ctx, ts := h.wsCtx(c), h.teamOf(c, ld)
	accts, err := keptLatest(ctx, h, ts, "accounts of business", strconv.Itoa(int(id)), func(ctx context.Context) ([]store.Account, int, error) {
		accts, err := h.store.AccountsOfBusiness(ctx, ts.a, id)
		return accts, accountsWeight(accts), err
	})
	if err != nil {
		h.logWorkspace(c, "accounts of business", err)
		ld.partial = true
		return nil
	}
	var known map[store.Score]store.KnownScore
	if histErr == nil {
		known = credit.TeamObservation(id, "", hist, nil, h.now()).Latest
	}
	return views.NewAccountPanel(id, accts, known)
}

// demoHistoryPath imports the demo ledger history (demo mode only).
const demoHistoryPath = "/accounts/import/history"

// DemoHistoryLabel is the history's button: it names what it imports.
const DemoHistoryLabel = "Import 36 months of demo ledger history"

// demoSeed is the seed of the demo data the sample ledgers and the
// history are made from, as the stand-in's default.
const demoSeed = 1

// submitDemoHistory imports the demo portfolio's 36 month-end ledgers,
// each through the store's import as a ledger file would be (one
// transaction, audited), oldest first, then shows the validation. The
// ledgers end at the end of last month, the stand-in's latest month, so
// their arrears line up with the score histories it serves.
func (h *Handler) submitDemoHistory(c *echo.Context) error {
	if !h.sampleLedgers {
		return echo.ErrNotFound
	}
	a := h.analyst(c)
	now := h.now().UTC()
	latest := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -1, 0)
	months := demohistory.Build(simulator.Generate(simulator.GenerateOptions{Seed: demoSeed, AsOf: latest}))
	ctx := c.Request().Context()
	for _, m := range months {
		_, err := h.store.ImportLedger(ctx, a, store.ImportSpec{AsOf: m.AsOf, File: "demo-ledger-history-" + m.AsOf.Format("2006-01") + ".csv", Lines: m.Lines})
		if err != nil {
			var ve *store.ValidationError
			if errors.As(err, &ve) || errors.Is(err, store.ErrAccountsFull) {
				page := h.importPage(c, now.Format(store.DateLayout))
				page.FileError = storeMessage(err)
				return h.render(c, http.StatusUnprocessableEntity, templates.AccountsImport(page))
			}
			return accountsError(err)
		}
	}
	return redirect(c, validationPath)
}

// maxFetchedAtOnce bounds the businesses one click fetches or resolves.
const maxFetchedAtOnce = 50

// submitAccountScores fetches the score history and industry codes of up
// to maxFetchedAtOnce linked businesses the team knows no score of, within
// the analyst's hourly budget (the same copies a report's overview reads),
// and records them for the team.
func (h *Handler) submitAccountScores(c *echo.Context) error {
	a := h.analyst(c)
	all, err := h.teamFigures(c.Request().Context(), a, "")
	if err != nil {
		return accountsError(err)
	}
	type fetch struct {
		id      int32
		hist    []upstream.CreditScoreHistoryRow
		naics   []upstream.NAICSCode
		histErr error
		naicErr error
	}
	var todo []*fetch
	seen := map[int32]bool{}
	for _, f := range all {
		if f.Linked() && f.Risk == nil && !seen[f.BusinessID] && len(todo) < maxFetchedAtOnce {
			seen[f.BusinessID] = true
			todo = append(todo, &fetch{id: f.BusinessID})
		}
	}
	secs := make([]section, 0, len(todo))
	for _, t := range todo {
		ref := upstream.ByID(t.id)
		secs = append(secs, section{name: "b" + strconv.Itoa(int(t.id)), calls: []func(context.Context, Source){
			func(ctx context.Context, src Source) {
				t.hist, t.histErr = src.CreditScoreHistory(ctx, ref, time.Time{}, time.Time{})
			},
			func(ctx context.Context, src Source) { t.naics, t.naicErr = src.NAICSCodes(ctx, ref) },
		}})
	}
	ld := h.load(c, secs...)
	if err := sessionProblem(todo, func(t *fetch) error { return t.histErr }); err != nil {
		return err
	}
	fetched := ld.rd.Report().FetchedAt
	if fetched.IsZero() {
		fetched = h.now()
	}
	n := 0
	for _, t := range todo {
		if t.histErr != nil {
			continue
		}
		var naics []upstream.NAICSCode
		if t.naicErr == nil {
			naics = t.naics
		}
		r := alerts.Report{ID: t.id, History: t.hist, NAICS: naics, Fetched: fetched}
		if _, err := h.arrivals.TeamScores(c.Request().Context(), a, r); err != nil {
			return accountsError(err)
		}
		n++
	}
	return redirect(c, "/accounts?fetched="+strconv.Itoa(n)+"&asked="+strconv.Itoa(len(todo)))
}

// sessionProblem is the first error that ends the whole action (the
// session expired), nil when none does.
func sessionProblem[T any](items []T, errOf func(T) error) error {
	for _, it := range items {
		if err := errOf(it); errors.Is(err, upstream.ErrSessionExpired) {
			return err
		}
	}
	return nil
}

// submitAccountLinks resolves up to maxFetchedAtOnce accounts known only
// by a CustomerId or SupplierId to the service's business, within the
// hourly budget. An identifier the service does not know (404) stays
// unlinked: nothing is guessed.
func (h *Handler) submitAccountLinks(c *echo.Context) error {
	a := h.analyst(c)
	unl, err := h.store.Unlinked(c.Request().Context(), a, maxFetchedAtOnce)
	if err != nil {
		return accountsError(err)
	}
	type resolve struct {
		account string
		ref     upstream.BusinessRef
		ident   upstream.Identification
		err     error
	}
	var todo []*resolve
	for _, u := range unl {
		ref := upstream.ByCustomerID(u.CustomerID)
		if u.CustomerID == "" {
			ref = upstream.BySupplierID(u.SupplierID)
		}
		if ref.Validate() == nil {
			todo = append(todo, &resolve{account: u.Account, ref: ref})
		}
	}
	secs := make([]section, 0, len(todo))
	for i, t := range todo {
		secs = append(secs, one("r"+strconv.Itoa(i), func(ctx context.Context, src Source) {
			t.ident, t.err = src.IdentificationGroup(ctx, t.ref)
		}))
	}
	h.load(c, secs...)
	if err := sessionProblem(todo, func(t *resolve) error { return t.err }); err != nil {
		return err
	}
	n := 0
	for _, t := range todo {
		if t.err != nil || t.ident.BusinessID <= 0 {
			continue
		}
		if err := h.store.LinkAccount(c.Request().Context(), a, t.account, t.ident.BusinessID); err != nil {
			return accountsError(err)
		}
		n++
	}
	return redirect(c, "/accounts?linked="+strconv.Itoa(n)+"&asked="+strconv.Itoa(len(todo)))
}
