package handlers

import (
	"context"
	"fmt"
	"iter"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/labstack/echo/v5"

	"creditdash/internal/credit"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/internal/xlsx"
	"creditdash/templates"
)

// accountsPageSize is how many accounts one page of /accounts lists.
const accountsPageSize = 100

// parseAccountsFilter reads the page's query; unknown values are ignored.
func parseAccountsFilter(q url.Values) views.AccountsFilter {
	f := views.AccountsFilter{OverLimit: q.Get("over") != "", NotLinked: q.Get("unlinked") != "", NoScore: q.Get("noscore") != "",
		ERPDiffers: q.Get("erp") != "",
		Owner:      views.Clip(strings.TrimSpace(q.Get("owner")), 256), Desc: q.Get("desc") != ""}
	if b := q.Get("band"); b == "none" {
		f.Band = b
	} else if n, err := strconv.Atoi(b); err == nil && n >= 1 && n <= 10 {
		f.Band = b
	}
	if s := q.Get("sort"); slices.Contains(views.AccountSorts, s) {
		f.Sort = s
	}
	return f
}

// showAccounts lists every account of the team's record with its line of
// the newest ledger, sorted and filtered.
func (h *Handler) showAccounts(c *echo.Context) error {
	ctx := c.Request().Context()
	a := h.analyst(c)
	q := c.Request().URL.Query()
	page := views.AccountsPage{Filter: parseAccountsFilter(q), PDNote: credit.PDAssumption}
	page.Base = h.base(c, nil, "Accounts", views.NavAccounts)
	page.Columns = h.accountColumns(c)
	dates, err := h.store.LedgerDates(ctx, a)
	if err != nil {
		return accountsError(err)
	}
	page.Dates = dates
	if id, err := strconv.ParseInt(q.Get("import"), 10, 64); err == nil {
		if rec, err := h.store.Import(ctx, a, id); err == nil {
			page.Flash = importFlash(rec)
			if _, n, err := h.store.QueuedLookups(ctx, a, 0); err == nil && n > 0 && page.Role != "auditor" {
				page.Flash += " " + views.Plural(n, "name") + " of the team's accounts wait for the service's search. " +
					h.lookupsWhen(session.Must(c).User, n)
			}
		}
	}
	asked, _ := strconv.Atoi(q.Get("asked"))
	if n, err := strconv.Atoi(q.Get("fetched")); err == nil && asked > 0 {
		page.Flash = fmt.Sprintf("Scores fetched for %d of the %d businesses asked for.", n, asked)
		if n < asked {
			page.Flash += " The rest were left for want of requests this hour, or failed; try again later."
		}
	}
	if n, err := strconv.Atoi(q.Get("linked")); err == nil && asked > 0 {
		page.Flash = fmt.Sprintf("%d of %s linked to the service's business.", n, views.Plural(asked, "account"))
		if n < asked {
			page.Flash += " The rest stay “not linked yet”: the service did not know their identifier, or requests ran out this hour."
		}
	}
	if len(dates) > 0 {
		page.AsOf = dates[0]
	}
	if r, err := strconv.Atoi(q.Get("requested")); err == nil && r >= 0 && r <= maxAdoptedAtOnce {
		if n, err := strconv.Atoi(q.Get("approved")); err == nil && n >= 0 && n <= r {
			page.Flash = erpFlash(r, n)
		}
	}
	if d := q.Get("restored"); d != "" {
		if _, err := time.Parse(store.DateLayout, d); err == nil {
			page.Flash = "The kept ledger of " + d + " is restored; the ledger it replaced is kept in its place, to be restored in turn."
		}
	}
	if hand := q.Get("handlinked"); hand != "" {
		// Said only of an account the record shows linked, so a crafted
		// address cannot make the page claim a link.
		if acct, err := h.store.Account(ctx, a, hand); err == nil && acct.BusinessID != 0 {
			page.Flash = fmt.Sprintf("Account %s linked by hand to business %d; the audit trail keeps who linked it and when.", hand, acct.BusinessID)
		}
	}
	ts, err := h.teamNow(ctx, a)
	if err != nil {
		return accountsError(err)
	}
	n, _ := strconv.Atoi(q.Get("page"))
	base := pageURL(c)
	pageAt := func(p int) string {
		v := base.Query()
		v.Set("page", strconv.Itoa(p))
		return base.Path + "?" + v.Encode()
	}
	if rq, ok := recordQuery(page.Filter); ok {
		err = h.accountsFromRecord(ctx, ts, &page, rq, n, pageAt)
	} else {
		err = h.accountsFromFigures(ctx, ts, &page, n, pageAt)
	}
	if err != nil {
		return accountsError(err)
	}
	return h.render(c, http.StatusOK, templates.Accounts(page))
}

// recordQuery is the filter as a query of the record in SQL, when SQL can
// read it as views.SortFigures and the filter would: sorts and filters on
// scores (band, no score, risk, expected loss, implied limit) and on text
// (name, owner, and an owner beyond ASCII, whose case SQL folds otherwise
// than Go) are read from the team's figures instead.
func recordQuery(f views.AccountsFilter) (store.RecordQuery, bool) {
	if f.Band != "" || f.NoScore || !slices.Contains(store.RecordSorts, f.Sort) {
		return store.RecordQuery{}, false
	}
	for i := range len(f.Owner) {
		if f.Owner[i] >= utf8.RuneSelf {
			return store.RecordQuery{}, false
		}
	}
	return store.RecordQuery{Sort: f.Sort, Desc: f.Desc, OverLimit: f.OverLimit, NotLinked: f.NotLinked, ERPDiffers: f.ERPDiffers,
		Owner: f.Owner}, true
}

// accountsFromRecord fills the page from one page of the record read in
// SQL and its counts and sums, kept for the team's version per filter: the
// first page after a team write reads a hundred accounts, not every one.
func (h *Handler) accountsFromRecord(ctx context.Context, ts teamState, page *views.AccountsPage, rq store.RecordQuery, n int, pageAt func(int) string) error {
	known, err := h.knownScoresAt(ctx, ts)
	if err != nil {
		return err
	}
	key := fmt.Sprintf("%t/%t/%t/%s", rq.OverLimit, rq.NotLinked, rq.ERPDiffers, strings.ToLower(rq.Owner))
	sum, err := keptTeam(ctx, h, ts, "record", key, func(ctx context.Context) (store.RecordSummary, int, error) {
		sum, err := h.store.RecordSummary(ctx, ts.a, rq)
		return sum, len(sum.Groups)*int(unsafe.Sizeof(store.RecordGroup{})) + 32*len(sum.Owners), err
	})
	if err != nil {
		return err
	}
	for _, g := range sum.Groups {
		page.All += g.Accounts
		page.Matching += g.Kept
		page.Unlinked += g.Unlinked
		page.ERPDiffers += g.ERPDiffers
		page.NotInLedger += g.NotInLedger
		if _, scored := known[g.BusinessID][store.ScoreRisk]; g.BusinessID != 0 && !scored {
			page.Unscored += g.Accounts
		}
	}
	page.Owners = sum.Owners
	page.Totals = views.NewGroupTotals(sum.Groups, known)
	page.Pager = views.NewPager(n, accountsPageSize, page.Matching, pageAt)
	if page.Pager.FirstRow == 0 {
		return nil
	}
	rq.Offset, rq.Limit = page.Pager.FirstRow-1, page.Pager.LastRow-page.Pager.FirstRow+1
	rows, err := h.store.RecordRows(ctx, ts.a, rq)
	if err != nil {
		return err
	}
	for _, acct := range rows {
		page.Rows = append(page.Rows, views.NewAccountRow(credit.NewFigures(acct, known[acct.BusinessID])))
	}
	return nil
}

// accountsFromFigures fills the page from every account's figures, kept
// for the team's version: the sorts and filters SQL does not read.
func (h *Handler) accountsFromFigures(ctx context.Context, ts teamState, page *views.AccountsPage, n int, pageAt func(int) string) error {
	all, err := h.teamFiguresAt(ctx, ts, "")
	if err != nil {
		return err
	}
	page.All = len(all)
	owners := map[string]bool{}
	// Pointers into the kept figures, which are shared and never changed.
	kept := make([]*credit.Figures, 0, len(all))
	for i := range all {
		f := &all[i]
		if f.Owner != "" {
			owners[f.Owner] = true
		}
		switch {
		case !f.Linked() && (f.CustomerID != "" || f.SupplierID != ""):
			page.Unlinked++
		case f.Linked() && f.Risk == nil:
			page.Unscored++
		}
		if f.Account.ERPDiffers() {
			page.ERPDiffers++
		}
		if !f.Account.InLedger() {
			page.NotInLedger++
		}
		if page.Filter.Keep(*f) {
			kept = append(kept, f)
		}
	}
	for o := range owners {
		page.Owners = append(page.Owners, o)
	}
	slices.Sort(page.Owners)
	views.SortFigurePointers(kept, page.Filter)
	page.Matching, page.Totals = len(kept), views.NewAccountTotals(kept)
	page.Pager = views.NewPager(n, accountsPageSize, len(kept), pageAt)
	if page.Pager.FirstRow > 0 {
		for _, f := range kept[page.Pager.FirstRow-1 : page.Pager.LastRow] {
			page.Rows = append(page.Rows, views.NewAccountRow(*f))
		}
	}
	return nil
}

// accountColumns are the columns the signed-in analyst chose for
// /accounts; the defaults when they never chose, or when the store cannot
// say (logged: the page still shows).
func (h *Handler) accountColumns(c *echo.Context) views.AccountColumns {
	chosen, err := h.store.AccountColumns(h.wsCtx(c), h.analyst(c))
	if err != nil {
		h.logWorkspace(c, "account columns", err)
	}
	return views.NewAccountColumns(chosen)
}

// submitAccountColumns keeps the columns the analyst ticked (or, with
// reset, the defaults) and brings them back to /accounts filtered as it
// was. Ticking none is refused: a table of names only is never meant.
func (h *Handler) submitAccountColumns(c *echo.Context) error {
	if err := c.Request().ParseForm(); err != nil {
		return badInput("The form could not be read; open the accounts page again.")
	}
	form := c.Request().PostForm
	var cols []string
	if form.Get("reset") == "" {
		if cols = views.KnownAccountColumns(form["col"]); len(cols) == 0 {
			return badInput("Tick at least one column to show, or go back to the usual columns.")
		}
	}
	if err := h.store.SetAccountColumns(c.Request().Context(), h.analyst(c), cols); err != nil {
		return workspaceError(err)
	}
	// The filter is read back through the page's own parser, so the
	// redirect is /accounts with known parameters only, never elsewhere.
	q, _ := url.ParseQuery(form.Get("q"))
	to := "/accounts"
	if s := (views.AccountsPage{Filter: parseAccountsFilter(q)}).URLQuery(); s != "" {
		to += "?" + s
	}
	return redirect(c, to+"#columns")
}

// importFlash tells what an import did.
func importFlash(rec store.ImportRecord) string {
	msg := fmt.Sprintf("%s imported, %s skipped (ledger as of %s, from %s by %s).", views.Plural(rec.Imported, "account"),
		views.Plural(rec.Skipped, "row"), rec.AsOf, views.Clip(rec.File, 80), rec.By)
	if rec.Replaced {
		msg += " The team's earlier ledger of that date is kept as a version, to be restored in one step on the import page."
	}
	if rec.Summary != "" {
		msg += " What it did: " + rec.Summary + "."
	}
	if len(rec.Dropped) > 0 {
		msg += " The team keeps 36 dates, so the ledger of " + strings.Join(rec.Dropped, ", ") + " was dropped."
	}
	return msg
}

// exportAccountsCSV downloads the newest ledger's accounts, filtered as
// the page is, a row at a time.
func (h *Handler) exportAccountsCSV(c *echo.Context) error {
	rows, err := h.accountRows(c)
	if err != nil {
		return err
	}
	return h.sendCSV(c, "accounts", views.AccountsCSVHeader, rows)
}

// nextReviewColumn is where next_review sits in views.AccountsCSVHeader.
var nextReviewColumn = slices.Index(views.AccountsCSVHeader, "next_review")

// accountRows are the rows both downloads hold (accounts.csv and
// accounts.xlsx): the page's filter and sort, with each account's next
// review date from the schedule. Everything they are made from is read
// before the first (so a failure is still a page); each row is made as it
// is written and dropped after, so a download never holds the file.
func (h *Handler) accountRows(c *echo.Context) (iter.Seq[[]string], error) {
	kept, err := h.keptFigures(c)
	if err != nil {
		return nil, err
	}
	book, err := h.reviewBook(c.Request().Context(), h.analyst(c))
	if err != nil {
		return nil, err
	}
	return func(yield func([]string) bool) {
		for _, f := range kept {
			rec := views.AccountCSVRecord(*f)
			rec[nextReviewColumn] = book.of(f).next.Format(store.DateLayout)
			if !yield(rec) {
				return
			}
		}
	}, nil
}

// keptFigures are the accounts a download holds: the page's filter and
// sort, every page. They point into the team's kept figures, which are
// shared and never changed: a copy of 50,000 would cost 19 MB a download.
func (h *Handler) keptFigures(c *echo.Context) ([]*credit.Figures, error) {
	all, err := h.teamFigures(c.Request().Context(), h.analyst(c), "")
	if err != nil {
		return nil, accountsError(err)
	}
	flt := parseAccountsFilter(c.Request().URL.Query())
	kept := make([]*credit.Figures, 0, len(all))
	for i := range all {
		if flt.Keep(all[i]) {
			kept = append(kept, &all[i])
		}
	}
	views.SortFigurePointers(kept, flt)
	return kept, nil
}

// exportAccountsXLSX downloads the same rows as accounts.csv (next_review
// included) as a workbook, written to the response a row at a time
// (internal/xlsx). Numbers are number cells; text is written as text
// cells, which a spreadsheet never runs as a formula.
func (h *Handler) exportAccountsXLSX(c *echo.Context) error {
	rows, err := h.accountRows(c)
	if err != nil {
		return err
	}
	file := "creditdash-accounts-" + h.now().UTC().Format("2006-01-02") + ".xlsx"
	hd := c.Response().Header()
	hd.Set(echo.HeaderContentType, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	hd.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": file}))
	hd.Set("Cache-Control", "no-store")
	w := c.Response()
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(h.exportStall))
	w.WriteHeader(http.StatusOK)
	x, err := xlsx.NewWriter(w)
	if err != nil {
		h.abortDownload(c, 0, err)
	}
	head := make([]any, len(views.AccountsCSVHeader))
	for i, hd := range views.AccountsCSVHeader {
		head[i] = hd
	}
	_ = x.Row(head)
	n := 0
	cells := make([]any, len(views.AccountsCSVHeader))
	for rec := range rows {
		for j, v := range rec {
			cells[j] = xlsxValue(j, v)
		}
		if err := x.Row(cells); err != nil {
			h.abortDownload(c, n, err)
		}
		if n++; n%downloadFlush == 0 {
			_ = rc.SetWriteDeadline(time.Now().Add(h.exportStall))
		}
	}
	if err := x.Close(); err != nil {
		h.abortDownload(c, n, err)
	}
	return nil
}

// xlsxValue is a CSV field as a cell: the text columns (account, name,
// owner, next_review) as text with the CSV's defusing apostrophe taken
// off (a text cell needs none), the rest as numbers.
func xlsxValue(col int, v string) any {
	switch views.AccountsCSVHeader[col] {
	case "account", "name", "owner", "next_review":
		if len(v) > 1 && v[0] == '\'' && strings.ContainsRune("=+-@\t\r", rune(v[1])) {
			return v[1:]
		}
		return v
	}
	if v == "" {
		return nil
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return v
	}
	return n
}
