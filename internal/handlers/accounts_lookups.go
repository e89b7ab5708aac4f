package handlers

import (
	"context"
	"errors"
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
const importSearches = 20

// lookupsAtOnce is how many queued names one press looks up.
const lookupsAtOnce = 10

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
// team's businesses link to nothing (an account the record links already
// is left as it is), within importSearches requests. It links each line
// whose name the search found one business of, and returns those accounts
// (by the business's name) and the accounts whose names wait for a search.
func (h *Handler) searchUnknownNames(c *echo.Context, a store.Analyst, lines []store.LedgerLine) (found map[string]string, queue []string, err error) {
	linked, err := h.store.LinkedAccounts(c.Request().Context(), a)
	if err != nil {
		return nil, nil, err
	}
	byKey := map[string][]int{}
	var names []*nameSearch
	for i, l := range lines {
		if l.BusinessID != 0 || l.CustomerID != "" || l.SupplierID != "" || linked[l.Account] {
			continue
		}
		key := ledger.NameKey(l.Name)
		if key == "" {
			continue
		}
		if _, seen := byKey[key]; !seen {
			names = append(names, &nameSearch{name: views.Clip(l.Name, maxSearchLen), key: key})
		}
		byKey[key] = append(byKey[key], i)
	}
	now := names[:min(len(names), importSearches)]
	if !h.searchNames(c, now) {
		return nil, nil, nil // no search offered: nothing to queue for
	}
	found = map[string]string{}
	for _, n := range names {
		switch {
		case n.answered():
			if b, ok := n.only(); ok {
				for _, i := range byKey[n.key] {
					lines[i].BusinessID = b.BusinessID
					found[lines[i].Account] = b.BusinessName
				}
			}
		default:
			for _, i := range byKey[n.key] {
				queue = append(queue, lines[i].Account)
			}
		}
	}
	return found, queue, nil
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
	names := make([]*nameSearch, len(queued))
	for i, q := range queued {
		names[i] = &nameSearch{name: views.Clip(q.Name, maxSearchLen), key: ledger.NameKey(q.Name)}
	}
	if !h.searchNames(c, names) {
		return redirect(c, importPath+"?lookups=unoffered#lookups")
	}
	if err := sessionProblem(names, func(n *nameSearch) error { return n.err }); err != nil {
		return err
	}
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
	linked, err := h.store.ResolveLookups(ctx, a, results)
	if err != nil {
		return accountsError(err)
	}
	return redirect(c, importPath+"?looked="+strconv.Itoa(len(results))+"&found="+strconv.Itoa(linked)+
		"&asked="+strconv.Itoa(len(names))+"#lookups")
}

// lookupsFlash says what the last press of "look up" did, from the
// redirect's query; "" when it says nothing sensible.
func lookupsFlash(c *echo.Context) string {
	if c.QueryParam("lookups") == "unoffered" {
		return "The service does not offer its name search to you, so the queued names cannot be looked up; link the accounts by hand."
	}
	looked, err1 := strconv.Atoi(c.QueryParam("looked"))
	found, err2 := strconv.Atoi(c.QueryParam("found"))
	asked, err3 := strconv.Atoi(c.QueryParam("asked"))
	if err1 != nil || err2 != nil || err3 != nil || found < 0 || found > looked || looked > asked || asked > lookupsAtOnce {
		return ""
	}
	msg := views.Plural(looked, "name") + " looked up: " + strconv.Itoa(found) + " linked to the one business of that name, " +
		strconv.Itoa(looked-found) + " left not linked (link them by hand from the accounts not linked)."
	if looked < asked {
		msg += " " + strconv.Itoa(asked-looked) + " stay queued: the hour's requests ran out or the service failed; try again later."
	}
	return msg
}
