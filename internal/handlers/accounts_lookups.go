package handlers

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/labstack/echo/v5"

	"creditdash/internal/ledger"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
)

// Names the team does not know (issue 43.3). An import looks up the names
// of the accounts a file links to nothing, and no business of the team's
// matches, through the service's Business/Search: at most importSearches
// requests, planned within the analyst's hourly budget like any page's. A
// search that finds exactly one business of exactly the name (NameKey)
// links the account; any other answer leaves it not linked, never
// guessed. The names past the budget (or the hour's requests) are queued
// in the store, and a signed-in analyst works the queue off from the
// import page, lookupsAtOnce names a press: jobs hold no session key.

// lookupsPath is where the queued names are looked up.
const lookupsPath = "/accounts/lookups"

// importSearches is how many Business/Search requests one import spends.
const importSearches = views.ImportSearches

// lookupsAtOnce is how many queued names one press looks up.
const lookupsAtOnce = views.LookupsAtOnce

// lookupResults is how many businesses a look-up asks for: enough to see
// a second business of the same name.
const lookupResults = 5

// nameSearch is one name looked up: its key, and what the search found.
type nameSearch struct {
	name, key string
	ran       bool
	found     []upstream.SearchResult
	err       error
}

// only is the one business the search found of exactly the name, or
// false when it found none or several.
func (n *nameSearch) only() (upstream.SearchResult, bool) {
	var one upstream.SearchResult
	for _, r := range n.found {
		if ledger.NameKey(r.BusinessName) != n.key || r.BusinessID <= 0 {
			continue
		}
		if one.BusinessID != 0 && one.BusinessID != r.BusinessID {
			return upstream.SearchResult{}, false
		}
		one = r
	}
	return one, one.BusinessID != 0
}

// answered says the service answered the search: a name whose search did
// not run or failed stays to be looked up.
func (n *nameSearch) answered() bool { return n.ran && n.err == nil }

// searchNames looks the names up, each a section of one request planned
// within the user's budget. It reports false when the service does not
// offer the search to this user (it is then hidden for a while).
func (h *Handler) searchNames(c *echo.Context, names []*nameSearch) bool {
	if len(names) == 0 {
		return true
	}
	user := session.Must(c).User
	if !h.features.offered(user, featureSearch) {
		return false
	}
	secs := make([]section, 0, len(names))
	for i, n := range names {
		secs = append(secs, one("n"+strconv.Itoa(i), func(ctx context.Context, src Source) {
			n.ran = true
			n.found, n.err = src.Search(ctx, n.name, lookupResults)
		}))
	}
	h.load(c, secs...)
	for _, n := range names {
		if errors.Is(n.err, upstream.ErrNotFound) {
			h.features.markMissing(user, featureSearch)
			return false
		}
	}
	return true
}

// searchUnknownNames looks up the names of the lines the file and the
// team's businesses link to nothing (ledger.UnknownNames: an account the
// record links already is left as it is) within importSearches requests,
// and the oldest queued names with what the file's own names leave of
// them. It links each line whose name the search found one business of,
// and returns those accounts (by the business's name), the accounts whose
// names wait for a search, and what it found for the queued names.
func (h *Handler) searchUnknownNames(c *echo.Context, a store.Analyst, lines []store.LedgerLine) (found map[string]string, queue []string, resolved []store.LookupResult, err error) {
	ctx := c.Request().Context()
	var unknown []ledger.Unknown
	if slices.ContainsFunc(lines, unlinked) {
		linked, err := h.store.LinkedAccounts(ctx, a)
		if err != nil {
			return nil, nil, nil, err
		}
		unknown = ledger.UnknownNames(lines, linked)
	}
	own := make([]*nameSearch, 0, importSearches)
	keys := make(map[string]bool, len(unknown))
	for i, u := range unknown {
		keys[u.Key] = true
		if i < importSearches {
			own = append(own, &nameSearch{name: views.Clip(u.Name, maxSearchLen), key: u.Key})
		}
	}
	var queued []store.QueuedLookup
	if spare := importSearches - len(own); spare > 0 {
		// Some of the oldest may be this file's own names: ask for more.
		qs, _, err := h.store.QueuedLookups(ctx, a, spare+importSearches)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, q := range qs {
			if k := ledger.NameKey(q.Name); k != "" && !keys[k] && len(queued) < spare {
				queued = append(queued, q)
			}
		}
	}
	others := queuedSearches(queued)
	if !h.searchNames(c, append(own[:len(own):len(own)], others...)) {
		return nil, nil, nil, nil // no search offered: nothing to queue for
	}
	found = map[string]string{}
	for i, u := range unknown {
		if i < len(own) && own[i].answered() {
			if b, ok := own[i].only(); ok {
				for _, j := range u.Lines {
					lines[j].BusinessID = b.BusinessID
					found[lines[j].Account] = b.BusinessName
				}
			}
			continue
		}
		for _, j := range u.Lines {
			queue = append(queue, lines[j].Account)
		}
	}
	return found, queue, settled(queued, others), nil
}

// unlinked reports a line the file links to no business.
func unlinked(l store.LedgerLine) bool {
	return l.BusinessID == 0 && l.CustomerID == "" && l.SupplierID == ""
}

// queuedSearches are the searches of queued names.
func queuedSearches(queued []store.QueuedLookup) []*nameSearch {
	names := make([]*nameSearch, len(queued))
	for i, q := range queued {
		names[i] = &nameSearch{name: views.Clip(q.Name, maxSearchLen), key: ledger.NameKey(q.Name)}
	}
	return names
}

// settled are the queued names the service answered: linked to the one
// business of exactly the name, or left not linked. The rest stay queued.
func settled(queued []store.QueuedLookup, names []*nameSearch) []store.LookupResult {
	var results []store.LookupResult
	for i, n := range names {
		if !n.answered() {
			continue
		}
		r := store.LookupResult{Account: queued[i].Account}
		if b, ok := n.only(); ok {
			r.BusinessID, r.BusinessName = b.BusinessID, b.BusinessName
		}
		results = append(results, r)
	}
	return results
}

// submitNameLookups looks up the next lookupsAtOnce queued names within
// the user's budget and settles each the service answered: linked to the
// one business of exactly its name, or left not linked. The rest stay
// queued.
func (h *Handler) submitNameLookups(c *echo.Context) error {
	a := h.analyst(c)
	ctx := c.Request().Context()
	queued, _, err := h.store.QueuedLookups(ctx, a, lookupsAtOnce)
	if err != nil {
		return accountsError(err)
	}
	names := queuedSearches(queued)
	if !h.searchNames(c, names) {
		return redirect(c, importPath+"?lookups=unoffered#lookups")
	}
	if err := sessionProblem(names, func(n *nameSearch) error { return n.err }); err != nil {
		return err
	}
	results := settled(queued, names)
	linked, err := h.store.ResolveLookups(ctx, a, results)
	if err != nil {
		return accountsError(err)
	}
	return redirect(c, importPath+"?looked="+strconv.Itoa(len(results))+"&found="+strconv.Itoa(linked)+
		"&asked="+strconv.Itoa(len(names))+"#lookups")
}

// lookupsWhen says when the user can have waiting queued names looked up
// (views.LookupsWhen), from what the dashboard knows of their hourly limit.
func (h *Handler) lookupsWhen(user string, waiting int) string {
	q, known := h.cache.Quota(user)
	return views.LookupsWhen(views.LookupsQuota{Offered: h.features.offered(user, featureSearch), Known: known,
		Remaining: q.Remaining, RenewsAt: q.RenewsAt()}, waiting)
}

// lookupsFlash says what the last press of "look up" did, from the
// redirect's query; "" when it says nothing sensible.
func lookupsFlash(c *echo.Context) string {
	if c.QueryParam("lookups") == "unoffered" {
		return views.LookupsUnoffered
	}
	looked, err1 := strconv.Atoi(c.QueryParam("looked"))
	found, err2 := strconv.Atoi(c.QueryParam("found"))
	asked, err3 := strconv.Atoi(c.QueryParam("asked"))
	if err1 != nil || err2 != nil || err3 != nil {
		return ""
	}
	return views.LookupsFlash(looked, found, asked)
}
