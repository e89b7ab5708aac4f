package handlers

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/credit"
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
	LinkAccountByHand(ctx context.Context, a store.Analyst, account string, business int32, name string) error
	SaveLimitInputs(ctx context.Context, a store.Analyst, account string, in store.LimitInputs) error
	AddAccount(ctx context.Context, a store.Analyst, n store.NewAccount) error
	PlanImport(ctx context.Context, a store.Analyst, asOf time.Time, lines []store.LedgerLine, update bool) (store.ImportPlan, error)
	LedgerVersions(ctx context.Context, a store.Analyst) ([]store.LedgerVersion, error)
	RestoreVersion(ctx context.Context, a store.Analyst, id int64) (store.LedgerVersion, error)
	KnownScores(ctx context.Context, a store.Analyst) (map[int32]map[store.Score]store.KnownScore, error)
	TeamBusinesses(ctx context.Context, a store.Analyst) (map[int32]store.TeamBusiness, error)
	RiskAsOf(ctx context.Context, a store.Analyst, month int) (map[int32]float64, error)
	RiskMonths(ctx context.Context, a store.Analyst, business int32) ([]store.ScoreMonth, error)
}

// teamOf is the team's version as the page ld loaded reads it, once: the
// score record's mark, the account tile and the header's decisions
// waiting are kept under it, so a warm report reads none of them. A
// failing read keeps nothing, and the page asks the store as before.
func (h *Handler) teamOf(c *echo.Context, ld *loaded) teamState {
	if ld != nil && ld.team != nil {
		return *ld.team
	}
	ts := teamState{a: h.analyst(c)}
	if h.accts != nil || h.decisions != nil {
		if now, err := h.teamNow(h.wsCtx(c), ts.a); err != nil {
			h.logWorkspace(c, "team version", err)
		} else {
			ts = now
		}
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
func (h *Handler) accountPanel(c *echo.Context, ld *loaded, ref upstream.BusinessRef, hd *headerData, hist []upstream.CreditScoreHistoryRow, histErr error) *views.AccountPanel {
	id, _ := reportBusiness(ref, hd)
	if h.accts == nil || id == 0 {
		return nil
	}
	ctx, ts := h.wsCtx(c), h.teamOf(c, ld)
	accts, err := keptLatest(ctx, h, ts, "accounts of business", strconv.Itoa(int(id)), func(ctx context.Context) ([]store.Account, int, error) {
		accts, err := h.accts.AccountsOfBusiness(ctx, ts.a, id)
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
