package handlers

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// maxCompareInput bounds what ?ids= may hold before it is read at all.
const maxCompareInput = 200

// compareLoad holds one business's calls on the compare page. They are the
// calls its report tabs make, with the same parameters, so a business
// whose report was open costs nothing more here.
type compareLoad struct {
	ref                             upstream.BusinessRef
	ident                           upstream.Identification
	hist                            []upstream.CreditScoreHistoryRow
	pay                             []upstream.PaymentSummaryRow
	stmts                           []upstream.AnnualFinancials
	identErr, histErr, payErr, sErr error
}

// section is the business's calls: one section, so the budget loads or
// offers a business as a whole.
func (l *compareLoad) section(stmtQuery upstream.StatementsQuery) section {
	ref := l.ref
	return section{name: "b" + strconv.Itoa(int(ref.ID())), calls: []func(context.Context, Source){
		func(ctx context.Context, src Source) { l.ident, l.identErr = src.IdentificationGroup(ctx, ref) },
		func(ctx context.Context, src Source) {
			l.hist, l.histErr = src.CreditScoreHistory(ctx, ref, time.Time{}, time.Time{})
		},
		func(ctx context.Context, src Source) { l.pay, l.payErr = src.PaymentSummaryMonthly(ctx, ref) },
		func(ctx context.Context, src Source) {
			l.stmts, l.sErr = src.LatestAnnualStatements(ctx, ref, stmtQuery)
		},
	}}
}

// unknown reports a business the service does not have. IdentificationGroup
// alone answering 404 means the operation is not offered, not that.
func (l *compareLoad) unknown() bool {
	for _, err := range []error{l.histErr, l.payErr, l.sErr} {
		if errors.Is(err, upstream.ErrNotFound) {
			return true
		}
	}
	return false
}

// showCompare sets 2–5 businesses side by side. What in ?ids= cannot be
// compared is named; the rest is still compared (200), and only a list
// with nothing left is a 400.
func (h *Handler) showCompare(c *echo.Context) error {
	ids, notices := parseCompareIDs(strings.Join(c.QueryParams()["ids"], ","))
	stmtForm, _ := parseStatementsForm("", "", "")
	loads := make([]*compareLoad, len(ids))
	secs := make([]section, len(ids))
	for i, id := range ids {
		loads[i] = &compareLoad{ref: upstream.ByID(id)}
		secs[i] = loads[i].section(stmtForm.query)
	}
	var ld *loaded
	if len(secs) > 0 {
		ld = h.load(c, secs...)
	}
	var inputs []views.CompareInput
	var kept []int32
	for _, l := range loads {
		if err := expiredAmong(l.identErr, l.histErr, l.payErr, l.sErr); err != nil {
			return err
		}
		if l.unknown() {
			notices = append(notices, "There is no business with id "+strconv.Itoa(int(l.ref.ID()))+"; it is left out.")
			continue
		}
		in := views.CompareInput{ID: l.ref.ID(), Hist: l.hist, Pay: l.pay, Stmts: l.stmts}
		if l.identErr == nil {
			in.Name = l.ident.BusinessName
		}
		identErr := l.identErr
		if identErr != nil && !isDeferred(identErr) {
			// It gives the name only: without it the column is headed by
			// the id and still shows the business's data.
			identErr = nil
		}
		if err := errors.Join(identErr, l.histErr, l.payErr, l.sErr); err != nil {
			in.Problem = h.sectionProblem(c, firstDeferredOr(err, identErr, l.histErr, l.payErr, l.sErr))
		}
		inputs = append(inputs, in)
		kept = append(kept, l.ref.ID())
	}
	page := views.ComparePage{IDs: joinIDs(kept), Notices: notices}
	if len(inputs) == 0 {
		page.Base = h.base(c, nil, "Compare businesses", views.NavBusiness)
		if len(ids) == 0 && len(notices) == 0 {
			page.Notices = append(page.Notices, "Name the businesses to compare: /compare?ids=1001,1002 (two to five ids).")
		}
		return h.render(c, http.StatusBadRequest, templates.Compare(page))
	}
	if len(inputs) == 1 {
		if len(ids) == 1 {
			page.Notices = append(page.Notices, "Add another business to compare with “Add to compare” on a report or search result.")
		} else {
			page.Notices = append(page.Notices, "Only one business is left to compare: add another with “Add to compare” on a report or search result.")
		}
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page.Base = h.base(c, ld, "Compare businesses", views.NavBusiness)
		page.Charts = true
		page.Columns, page.Rows = views.NewCompare(inputs)
		for i := range page.Columns {
			page.Columns[i].RemoveURL = compareURL(without(kept, kept[i]))
		}
		charts, err := views.CompareCharts(inputs)
		if err != nil {
			return 0, nil, err
		}
		page.ScoreCharts = charts
		return compareStatus(inputs), templates.Compare(page), nil
	})
}

// compareStatus is 200 while any business is shown or only waits to be
// loaded, and the failure's own status when every column failed.
func compareStatus(inputs []views.CompareInput) int {
	status := 0
	for _, in := range inputs {
		if in.Problem == nil || in.Problem.Deferred {
			return http.StatusOK
		}
		status = max(status, in.Problem.Status)
	}
	return status
}

// firstDeferredOr prefers the "not loaded" reason, which carries the Load
// link, over the first failure.
func firstDeferredOr(joined error, errs ...error) error {
	var de *deferredError
	if errors.As(joined, &de) {
		return de
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return joined
}

// parseCompareIDs reads ?ids=1001,1002: business ids in order, each once,
// at most views.MaxCompared; notices say what was left out and why.
func parseCompareIDs(raw string) ([]int32, []string) {
	var ids []int32
	var notices, bad, extra, twice []string
	if len(raw) > maxCompareInput {
		// Cut at the last comma before the bound: an id cut in two would
		// compare a business nobody asked for.
		raw = raw[:strings.LastIndexByte(raw[:maxCompareInput+1], ',')+1]
		notices = append(notices, "The list of ids is too long; only its start was read.")
	}
	seen := map[int32]bool{}
	for _, part := range strings.Split(raw, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		ref, err := upstream.ParseID(part)
		switch {
		case err != nil:
			bad = append(bad, "“"+views.Clip(part, 20)+"”")
		case seen[ref.ID()]:
			if !slices.Contains(twice, part) {
				twice = append(twice, part)
			}
		case len(ids) >= views.MaxCompared:
			extra = append(extra, part)
		default:
			seen[ref.ID()] = true
			ids = append(ids, ref.ID())
		}
	}
	if len(twice) > 0 {
		notices = append(notices, strings.Join(twice, ", ")+" "+isAre(len(twice))+" listed more than once; each is compared once.")
	}
	if len(bad) > 0 {
		notices = append(notices, strings.Join(bad, ", ")+" "+isAre(len(bad))+" not a business id (a whole number without a sign or leading zeros, such as 1001); left out.")
	}
	if len(extra) > 0 {
		notices = append(notices, "At most five businesses are compared; "+strings.Join(extra, ", ")+" left out.")
	}
	return ids, notices
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func joinIDs(ids []int32) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(int(id))
	}
	return strings.Join(parts, ",")
}

func without(ids []int32, drop int32) []int32 {
	out := make([]int32, 0, len(ids))
	for _, id := range ids {
		if id != drop {
			out = append(out, id)
		}
	}
	return out
}

// compareURL is the compare page of the ids; commas stay readable.
func compareURL(ids []int32) string { return "/compare?ids=" + joinIDs(ids) }
