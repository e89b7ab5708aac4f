package handlers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/amount"
	"creditdash/internal/ledger"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// A ledger file is previewed before it is imported; the preview's forms
// (a new column mapping, the import itself) name the waiting file by a
// token instead of sending it again. The file waits in the store
// (store.KeepUpload), not in this process, so behind several replicas
// without sticky sessions the import may land on any of them. The store
// bounds the waiting files per analyst (one), per team and in time; a
// preview whose file went asks for it again, which costs a click, never a
// wrong import.

// importPath is the import page's address; its POST may carry a file.
const importPath = "/accounts/import"

// maxUploadBodyBytes bounds an import's request: the file's 10 MB and the
// form around it.
const maxUploadBodyBytes = ledger.MaxFileBytes + 512<<10

// showAccountsImport shows the upload form (and, in demo mode, the sample
// ledgers).
func (h *Handler) showAccountsImport(c *echo.Context) error {
	page := h.importPage(c, h.now().UTC().Format(store.DateLayout))
	page.Flash = lookupsFlash(c)
	return h.render(c, http.StatusOK, templates.AccountsImport(page))
}

// importPage is the import page's shared part.
func (h *Handler) importPage(c *echo.Context, asOf string) views.AccountsImportPage {
	page := views.AccountsImportPage{AsOf: views.Clip(asOf, 20), Update: c.FormValue("mode") == store.ModeUpdate}
	page.Base = h.base(c, nil, "Import a ledger", views.NavAccounts)
	if vs, err := h.store.LedgerVersions(c.Request().Context(), h.analyst(c)); err != nil {
		h.logWorkspace(c, "ledger versions", err)
	} else {
		page.Versions = views.NewLedgerVersionRows(vs)
	}
	if qs, n, err := h.store.QueuedLookups(c.Request().Context(), h.analyst(c), lookupsAtOnce); err != nil {
		h.logWorkspace(c, "queued lookups", err)
	} else {
		page.Waiting, page.Queued = n, views.NewQueuedNameRows(qs)
		if n > 0 {
			page.LookupsWhen = h.lookupsWhen(session.Must(c).User, n)
		}
	}
	if h.sampleLedgers {
		cur, old := h.sampleDates()
		page.Samples = []views.SampleLedger{
			{Name: ledger.SampleCurrent, Label: "Demo ledger, as of " + cur, AsOf: cur},
			{Name: ledger.SampleOlder, Label: "Demo ledger three months earlier, as of " + old, AsOf: old},
		}
		page.History = DemoHistoryLabel
	}
	return page
}

// sampleDates are the sample ledgers' dates: the end of last month, when
// the demo's latest scores are, and three months before it.
func (h *Handler) sampleDates() (cur, old string) {
	first := time.Date(h.now().UTC().Year(), h.now().UTC().Month(), 1, 0, 0, 0, 0, time.UTC)
	return first.AddDate(0, 0, -1).Format(store.DateLayout), first.AddDate(0, -3, -1).Format(store.DateLayout)
}

// submitAccountsImport previews a file, writing nothing: a new file, a
// sample ledger, or the waiting upload read with another column mapping.
func (h *Handler) submitAccountsImport(c *echo.Context) error {
	a := h.analyst(c)
	page := h.importPage(c, strings.TrimSpace(c.FormValue("as_of")))
	fail := func(status int, msg string) error {
		page.FileError = msg
		return h.render(c, status, templates.AccountsImport(page))
	}
	ctx := c.Request().Context()
	leave, sent, wait := h.importTurn(c, a)
	if wait != "" {
		return fail(http.StatusTooManyRequests, wait)
	}
	defer leave()
	var up store.Upload
	var err error
	remap := false
	switch sample := c.FormValue("sample"); {
	case sample != "" && h.sampleLedgers:
		data, err := ledger.Sample(sample)
		if err != nil {
			return fail(http.StatusUnprocessableEntity, "There is no such sample ledger.")
		}
		for _, s := range page.Samples {
			if s.Name == sample {
				page.AsOf = s.AsOf
			}
		}
		if up, err = h.store.KeepUpload(ctx, a, sample, data); err != nil {
			return workspaceError(err)
		}
	case c.FormValue("upload") != "":
		if up, err = h.store.PendingUpload(ctx, a, c.FormValue("upload")); errors.Is(err, store.ErrNotFound) {
			return fail(http.StatusUnprocessableEntity, "That upload is no longer kept (a file waits 30 minutes for its import); choose the file again.")
		} else if err != nil {
			return workspaceError(err)
		}
		remap = true
	default:
		if sent == nil {
			if sent, err = formFile(c); err != nil {
				return fail(http.StatusUnprocessableEntity, "The file could not be read; choose it again.")
			}
		}
		switch {
		case sent == nil:
			return fail(http.StatusUnprocessableEntity, "Choose a CSV or XLSX file to import.")
		case sent.TooLarge:
			return fail(http.StatusRequestEntityTooLarge, "The file is over 10 MB; nothing was imported. Split it, or leave out columns the import does not read.")
		}
		if up, err = h.store.KeepUpload(ctx, a, sent.Name, sent.Data); err != nil {
			return workspaceError(err)
		}
	}
	if page.AsOf == "" {
		page.AsOf = h.now().UTC().Format(store.DateLayout)
	}
	rctx, cancel := context.WithTimeout(ctx, importDeadline)
	defer cancel()
	t, err := ledger.Read(rctx, up.Data)
	if err != nil {
		if err := h.store.DropUpload(ctx, a); err != nil {
			h.logWorkspace(c, "drop upload", err)
		}
		return fail(ledgerStatus(err), ledgerMessage(err))
	}
	m := t.Mapping()
	if remap {
		m = formMapping(c, len(t.Header))
	}
	asOf, asOfMsg := parseAsOf(page.AsOf, h.now())
	opts := ledger.Options{AsOf: asOf, Decimal: formDecimal(c), Dates: formDates(c)}
	if asOfMsg != "" {
		opts.AsOf = h.now().UTC()
	}
	mapErr := ""
	status := http.StatusOK
	if err := m.Check(t.Header); err != nil {
		mapErr, status = ledgerMessage(err), http.StatusUnprocessableEntity
	}
	// The file is read through once: the preview's counts and the plan's
	// lines come from the same reading.
	var res *ledger.Result
	if mapErr == "" {
		r := ledger.Parse(t, m, opts)
		res = &r
	}
	page.Preview = views.NewImportPreview(up.Token, up.Name, t, m, opts, res, mapErr)
	page.AsOfError = asOfMsg
	if rctx.Err() != nil {
		return fail(http.StatusUnprocessableEntity, ledgerMessage(ledger.ErrDeadline))
	}
	if mapErr == "" && asOfMsg == "" && page.Preview.CanImport {
		// What the import would do, from the lines it would import.
		if len(res.Lines) > 0 {
			plan, err := h.store.PlanImport(ctx, a, asOf, res.Lines, page.Update)
			var ve *store.ValidationError
			switch {
			case errors.As(err, &ve):
				page.FileError = storeMessage(err)
			case err != nil:
				return accountsError(err)
			default:
				page.Plan = views.NewImportPlanView(plan)
			}
		}
	}
	return h.render(c, status, templates.AccountsImport(page))
}

// formFile is the file of a form the standard parser read (an upload
// takeImportTurn did not read), nil when none was sent.
func formFile(c *echo.Context) (*session.UploadFile, error) {
	fh, err := c.FormFile("file")
	if err != nil {
		return nil, nil
	}
	if fh.Size > ledger.MaxFileBytes {
		return &session.UploadFile{Name: fh.Filename, TooLarge: true}, nil
	}
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, fh.Size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	return &session.UploadFile{Name: fh.Filename, Data: data}, nil
}

// formMapping reads the preview's column choices (map_0, map_1, ...); an
// unknown choice reads as "not imported".
func formMapping(c *echo.Context, columns int) ledger.Mapping {
	m := make(ledger.Mapping, columns)
	for i := range m {
		m[i], _ = ledger.ParseField(c.FormValue("map_" + strconv.Itoa(i)))
	}
	return m
}

// formDecimal is the preview's choice of decimal separator, for a file
// whose amounts do not show it.
func formDecimal(c *echo.Context) amount.Convention {
	switch c.FormValue("decimal") {
	case "point":
		return amount.Point
	case "comma":
		return amount.Comma
	}
	return amount.Unknown
}

// formDates is the preview's choice of the slashed dates' order, for a
// file whose dates do not show it.
func formDates(c *echo.Context) ledger.DateOrder {
	switch c.FormValue("dates") {
	case "day":
		return ledger.DayFirst
	case "month":
		return ledger.MonthFirst
	}
	return ledger.OrderUnknown
}

// importDeadline bounds reading a file for its preview or its import: a
// file that takes longer is refused, naming the bound.
const importDeadline = 10 * time.Second

// ledgerStatus is the status of a refused file: 413 past its size, 422
// past any other bound or for what it holds.
func ledgerStatus(err error) int {
	if errors.Is(err, ledger.ErrTooLarge) {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusUnprocessableEntity
}

// parseAsOf reads a ledger's date; msg says why it is refused.
func parseAsOf(s string, now time.Time) (time.Time, string) {
	d, err := time.Parse(store.DateLayout, s)
	switch {
	case err != nil:
		return d, "Give the date the balances are as of, as YYYY-MM-DD (such as 2026-10-31)."
	case d.After(now.UTC()):
		return d, "The date is after today; balances are as of a day that has passed."
	case d.Year() < 2000:
		return d, "The date is before 2000."
	}
	return d, ""
}

// submitAccountsImportConfirm imports the waiting upload's valid rows in
// one transaction and goes to the accounts with what it did.
func (h *Handler) submitAccountsImportConfirm(c *echo.Context) error {
	a := h.analyst(c)
	page := h.importPage(c, strings.TrimSpace(c.FormValue("as_of")))
	ctx := c.Request().Context()
	leave, wait := h.enterImport(c, a)
	if wait != "" {
		page.FileError = wait
		return h.render(c, http.StatusTooManyRequests, templates.AccountsImport(page))
	}
	defer leave()
	up, err := h.store.PendingUpload(ctx, a, c.FormValue("upload"))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return workspaceError(err)
	}
	if err != nil {
		page.FileError = "That upload is no longer kept (a file waits 30 minutes for its import); choose the file again. Nothing was imported."
		return h.render(c, http.StatusUnprocessableEntity, templates.AccountsImport(page))
	}
	rctx, cancel := context.WithTimeout(ctx, importDeadline)
	defer cancel()
	t, err := ledger.Read(rctx, up.Data)
	if err != nil { // it was read for the preview; only its deadline lands here
		page.FileError = ledgerMessage(err)
		return h.render(c, ledgerStatus(err), templates.AccountsImport(page))
	}
	m := formMapping(c, len(t.Header))
	asOf, asOfMsg := parseAsOf(page.AsOf, h.now())
	opts := ledger.Options{AsOf: asOf, Decimal: formDecimal(c), Dates: formDates(c)}
	mapErr := ""
	if err := m.Check(t.Header); err != nil {
		mapErr = ledgerMessage(err)
	}
	// The preview is built again only to answer a refusal: a 50,000-row
	// file is read through once on the way in.
	again := func(fileMsg string) error {
		if t == nil { // let go of for the store's write: read it again
			if up, err = h.store.PendingUpload(ctx, a, up.Token); err != nil {
				return workspaceError(err)
			}
			if t, err = ledger.Read(rctx, up.Data); err != nil {
				page.FileError = ledgerMessage(err)
				return h.render(c, ledgerStatus(err), templates.AccountsImport(page))
			}
		}
		page.Preview, page.AsOfError, page.FileError = views.NewImportPreview(up.Token, up.Name, t, m, opts, nil, mapErr), asOfMsg, fileMsg
		return h.render(c, http.StatusUnprocessableEntity, templates.AccountsImport(page))
	}
	if asOfMsg != "" || mapErr != "" {
		return again("")
	}
	res := ledger.Parse(t, m, opts)
	if rctx.Err() != nil {
		return again(ledgerMessage(ledger.ErrDeadline) + " Nothing was imported.")
	}
	if len(res.Lines) == 0 {
		return again("No row of the file can be imported; see the reasons below. Nothing was imported.")
	}
	var found map[string]string
	var queue []string
	var resolved []store.LookupResult
	if res.Unlinked > 0 {
		if err := h.linkByName(ctx, a, res.Lines); err != nil {
			return accountsError(err)
		}
	}
	// Even a file that links every line looks up queued names with its
	// searches: the queue moves at each import, not only by a press.
	if found, queue, resolved, err = h.searchUnknownNames(c, a, res.Lines); err != nil {
		return accountsError(err)
	}
	// The lines hold copies of what they need: the file's text (the
	// table's, and the upload's when it needed no decoding) need not stay
	// in memory while the store writes.
	t, up.Data = nil, nil
	rec, err := h.store.ImportLedger(ctx, a, store.ImportSpec{AsOf: asOf, File: up.Name, Lines: res.Lines, Skipped: len(res.Bad),
		Update: page.Update, Found: found, Queue: queue, Resolved: resolved})
	if err != nil {
		var ve *store.ValidationError
		if errors.Is(err, store.ErrAccountsFull) || errors.As(err, &ve) {
			return again(storeMessage(err))
		}
		return accountsError(err)
	}
	if err := h.store.DropUpload(ctx, a); err != nil {
		// The import is done; the file goes with its expiry.
		h.logWorkspace(c, "drop upload", err)
	}
	return redirect(c, "/accounts?import="+strconv.FormatInt(rec.ID, 10))
}

// linkByName links the lines the file links to no business to the one
// business of their name among those the team's newest ledger links
// (issue 43.3); a name of two businesses, or of none, stays not linked.
func (h *Handler) linkByName(ctx context.Context, a store.Analyst, lines []store.LedgerLine) error {
	have, err := h.store.LedgerBalances(ctx, a, "")
	if err != nil {
		return err
	}
	ledger.LinkByName(lines, ledger.KnownOf(have))
	return nil
}
