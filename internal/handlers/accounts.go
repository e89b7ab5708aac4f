package handlers

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

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
