package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/credit"
	"creditdash/internal/session"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Search limits: what a person types, and how many matches a page lists.
const (
	maxSearchLen  = 100
	searchResults = 20
)

// homeSpend is the most the home page spends of a short budget.
const homeSpend = 2

// homeMoveRows is how many businesses the home page compares for moves.
const homeMoveRows = views.MovesCompared

// showHome shows the portfolio at a glance (folders, biggest score moves,
// industry headlines), the business lookup and, with ?q=, businesses found
// by name. Every section's call runs at once and fails on its own.
func (h *Handler) showHome(c *echo.Context) error {
	return h.home(c, views.LookupForm{By: "auto"}, http.StatusOK)
}

// home builds the home page with the lookup form as given: empty, or
// sent back with a message and the status that goes with it. Either way
// the rest of the page is loaded, so a mistyped id never makes the
// portfolio look empty.
func (h *Handler) home(c *echo.Context, lookup views.LookupForm, status int) error {
	s := session.Must(c)
	searchOffered := h.features.offered(s.User, featureSearch)
	var (
		found                        []upstream.SearchResult
		folders                      []upstream.Folder
		pay, z                       upstream.PortfolioScoreHistory
		news                         []upstream.NewsItem
		ferr, perr, zerr, nerr, serr error
	)
	query := strings.TrimSpace(c.QueryParam("q"))
	searching := query != "" && searchOffered && utf8.RuneCountInString(query) <= maxSearchLen
	rows := upstream.PortfolioQuery{StartRow: 1, EndRow: homeMoveRows}
	var secs []section
	if searching {
		// Typed by the user, so always loaded.
		secs = append(secs, section{name: "search", always: true, calls: []func(context.Context, Source){
			// One more than shown tells whether there are more.
			func(ctx context.Context, src Source) { found, serr = src.Search(ctx, query, searchResults+1) },
		}})
	}
	secs = append(secs,
		one("folders", func(ctx context.Context, src Source) { folders, ferr = src.Folders(ctx) }),
		section{name: "moves", calls: []func(context.Context, Source){
			func(ctx context.Context, src Source) { pay, perr = src.PayScoreHistory(ctx, rows) },
			func(ctx context.Context, src Source) { z, zerr = src.ZScoreHistory(ctx, rows) },
		}},
		one("headlines", func(ctx context.Context, src Source) { news, nerr = src.IndustryNews(ctx) }),
	)
	// A short budget (an Ordinary account's) goes on two requests at
	// most here: the home page is opened most, and the reports it leads
	// to need the rest.
	ld := h.loadWithin(c, homeSpend, secs...)
	if err := expiredAmong(serr, ferr, perr, zerr, nerr); err != nil {
		return err
	}
	if searching && errors.Is(serr, upstream.ErrNotFound) {
		// The service does not offer search to this user: hide it for a while.
		h.features.markMissing(s.User, featureSearch)
		searchOffered, searching, serr = false, false, nil
	}
	if nerr == nil {
		h.learnDefaults(c, h.teamOf(c, ld), "Industry news on the home page", "/", news)
	}
	var changed []views.Changed
	changedKnown := false
	if perr == nil && zerr == nil {
		// The portfolio's scores arrived: check the alert rules and the
		// marks of the previous visit, before the page key counts alerts.
		h.portfolioArrived(c, ld, pay, z)
		changed, changedKnown = h.changedSince(c, ld, pay, z)
	}
	outcomes := h.outcomes(c)
	if outcomes != nil {
		ld.state += "\noutcomes:" + outcomes.UpTo + ":" + strconv.Itoa(len(outcomes.Rows)+outcomes.More)
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.HomePage{Base: h.base(c, ld, "Home", views.NavHome), SearchOffered: searchOffered, Outcomes: outcomes}
		page.Workspace.Changed, page.Workspace.ChangedKnown = changed, changedKnown
		page.Lookup = lookup
		if w := h.worklistSummary(c); w != nil && w.Total > 0 {
			page.Worklist = w
		}
		code := status
		if query != "" && searchOffered {
			page.Query = query
			if searching {
				page.SearchProblem = h.sectionProblem(c, serr)
				if len(found) > searchResults {
					found, page.MoreResults = found[:searchResults], true
				}
				page.Results = views.SearchRows(found)
				// The scores the analyst already has: Pay and Z″ from the
				// portfolio histories this page read, Risk and DBT as last
				// seen on a report; none is asked for.
				var payL, zL map[int32]credit.Latest
				if perr == nil && zerr == nil {
					payL, zL = credit.PortfolioLatest(pay), credit.PortfolioLatest(z)
				}
				ids := idsOf(found, func(r upstream.SearchResult) int32 { return r.BusinessID })
				if seen, err := h.store.LastSeen(h.wsCtx(c), h.analyst(c), ids); err == nil {
					views.WithKnownScores(page.Results, payL, zL, seen)
				}
			} else {
				page.SearchProblem = views.SearchTooLong()
				code = http.StatusBadRequest
			}
		}
		page.FoldersProblem = h.sectionProblem(c, ferr)
		page.Folders = views.FolderRows(folders, nil, false)
		page.MovesProblem = h.sectionProblem(c, errors.Join(perr, zerr))
		page.Moves = views.BiggestMoves(pay, z, views.MaxMoves)
		page.MovesCapped = max(pay.TotalResults, z.TotalResults) > homeMoveRows
		if !errors.Is(nerr, upstream.ErrNotFound) { // no industry news offered: nothing to say
			page.HeadlinesProblem = h.sectionProblem(c, nerr)
		}
		page.Headlines = views.NewsItems(news, h.now(), views.HomeHeadlines)
		return code, templates.Home(page), nil
	})
}

// openBusiness turns the lookup form into the business page's URL; what
// cannot be looked up comes back in the form with a message.
func (h *Handler) openBusiness(c *echo.Context) error {
	form := lookupForm{By: c.QueryParam("by"), Value: strings.TrimSpace(c.QueryParam("value"))}
	target, fault := form.target()
	if fault == views.LookupOK {
		return redirect(c, target)
	}
	lookup := views.LookupForm{By: form.By, Value: views.Clip(form.Value, 200), Error: fault.Message()}
	switch form.By {
	case "id", "customer", "supplier":
	default:
		lookup.By = "auto"
	}
	return h.home(c, lookup, http.StatusBadRequest)
}

// lookupForm is the home page's "open a business" form.
type lookupForm struct {
	By    string // auto (or empty), id, customer or supplier
	Value string
}

// target validates the form and builds the page's URL. "auto", the form's
// default, tells the kind from what was typed; so does "id" when what was
// typed is plainly a supplier or customer id (S-1001 typed with the id
// type used to fail).
func (f lookupForm) target() (string, views.LookupFault) {
	if f.Value == "" {
		return "", views.LookupEmpty
	}
	switch f.By {
	case "", "auto":
		if f.By = detectKind(f.Value); f.By == "" {
			return "", views.LookupUnknownKind
		}
	case "id":
		if k := detectKind(f.Value); k == "customer" || k == "supplier" {
			f.By = k
		}
	}
	var ref upstream.BusinessRef
	var prefix string
	switch f.By {
	case "id":
		r, err := upstream.ParseID(f.Value)
		if err != nil {
			return "", views.LookupBadID
		}
		ref, prefix = r, "/businesses/"
	case "customer":
		ref, prefix = upstream.ByCustomerID(f.Value), "/customers/"
	case "supplier":
		ref, prefix = upstream.BySupplierID(f.Value), "/suppliers/"
	default:
		return "", views.LookupBadKind
	}
	if err := ref.Validate(); err != nil {
		return "", views.LookupBadCode
	}
	if ref.Kind() == upstream.RefID {
		return prefix + f.Value, views.LookupOK
	}
	return prefix + url.PathEscape(f.Value), views.LookupOK
}

// customerPattern is a trade provider's customer id as the service hands
// them out: C, the provider's number, a dash (C1-1001).
var customerPattern = regexp.MustCompile(`^[Cc][0-9]*-\S+$`)

// detectKind tells from what was typed which kind of id it is: digits are
// a business id, S-… a supplier id, C…-… a customer id; "" when it is
// none of these.
func detectKind(v string) string {
	switch {
	case v != "" && strings.Trim(v, "0123456789") == "":
		return "id"
	case len(v) > 2 && strings.EqualFold(v[:2], "S-"):
		return "supplier"
	case customerPattern.MatchString(v):
		return "customer"
	}
	return ""
}
