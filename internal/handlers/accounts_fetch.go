package handlers

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/alerts"
	"creditdash/internal/upstream"
)

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
