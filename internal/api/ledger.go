package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/amount"
	"creditdash/internal/ledger"
	"creditdash/internal/roles"
	"creditdash/internal/store"
)

// ImportResult is what a ledger push did, or with dry_run would do.
type ImportResult struct {
	// ID is the import's id in the team's log; "" for a dry run.
	ID       string `json:"id"`
	AsOf     string `json:"as_of"`
	Mode     string `json:"mode"`
	DryRun   bool   `json:"dry_run"`
	Imported int    `json:"imported"`
	// Skipped counts the rows refused; Refused lists the first 100 with
	// their row (or JSON line) number and why.
	Skipped int          `json:"skipped"`
	Refused []RefusedRow `json:"refused"`
	// Summary says what the import does to the team's record, counted
	// and named, as the import page's preview says it.
	Summary string `json:"summary"`
}

// RefusedRow is a row of the pushed ledger that was not imported.
type RefusedRow struct {
	Row    int    `json:"row"`
	Reason string `json:"reason"`
}

// maxRefusedListed bounds ImportResult.Refused.
const maxRefusedListed = 100

// importDeadline bounds reading a pushed file, as the page's.
const importDeadline = 10 * time.Second

// submitLedger is POST /api/v1/ledgers: a ledger as of a date, a CSV or
// XLSX file as the import page takes it, or JSON lines (one account an
// object, keyed by the import's field names), read by the same importer
// (internal/ledger) into the same store import. Imports never change a
// limit in force or a decision.
func (a *API) submitLedger(c *echo.Context) error {
	if err := a.may(c, roles.ChangeAccounts); err != nil {
		return err
	}
	var errs []FieldError
	q := c.Request().URL.Query()
	asOf, err := time.Parse(store.DateLayout, q.Get("as_of"))
	switch {
	case err != nil:
		errs = append(errs, FieldError{Field: "as_of", Detail: "the date the balances are as of, as YYYY-MM-DD"})
	case asOf.After(a.now().UTC()):
		errs = append(errs, FieldError{Field: "as_of", Detail: "after today; balances are as of a day that has passed"})
	case asOf.Year() < 2000:
		errs = append(errs, FieldError{Field: "as_of", Detail: "before 2000"})
	}
	mode := q.Get("mode")
	if mode == "" {
		mode = store.ModeFull
	}
	if mode != store.ModeFull && mode != store.ModeUpdate {
		errs = append(errs, FieldError{Field: "mode", Detail: "full (the file is the whole ledger of its date) or update (only the accounts it lists)"})
	}
	dry := q.Get("dry_run")
	if dry != "" && dry != "true" && dry != "false" {
		errs = append(errs, FieldError{Field: "dry_run", Detail: "true, false, or leave it out"})
	}
	opts := ledger.Options{AsOf: asOf}
	switch q.Get("decimal") {
	case "":
	case "point":
		opts.Decimal = amount.Point
	case "comma":
		opts.Decimal = amount.Comma
	default:
		errs = append(errs, FieldError{Field: "decimal", Detail: "point or comma: the file's decimal separator, when its amounts do not show it"})
	}
	if errs != nil {
		return invalid(errs)
	}
	select {
	case a.imports <- struct{}{}:
		defer func() { <-a.imports }()
	default:
		p := problem(http.StatusTooManyRequests, "Other ledgers are being read; try again in a few seconds.")
		p.retryAfter = 5
		return p
	}
	data, err := io.ReadAll(io.LimitReader(c.Request().Body, ledger.MaxFileBytes+1))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge) || len(data) > ledger.MaxFileBytes:
		return problem(http.StatusRequestEntityTooLarge, "The ledger is over 10 MB; nothing was imported. Split it, or leave out what the import does not read.")
	case err != nil:
		return problem(http.StatusBadRequest, "The body could not be read.")
	}
	lines := jsonLines(c.Request().Header.Get("Content-Type"))
	var rows []int // a JSON line's number by the CSV row made of it
	if lines {
		var lineErrs []FieldError
		if data, rows, lineErrs = linesToCSV(data); lineErrs != nil {
			return invalid(lineErrs)
		}
		opts.Decimal = amount.Point
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), importDeadline)
	defer cancel()
	t, err := ledger.Read(ctx, data)
	if err != nil {
		return refusedFile(err)
	}
	m := t.Mapping()
	if err := m.Check(t.Header); err != nil {
		return refusedFile(err)
	}
	res := ledger.Parse(t, m, opts)
	if ctx.Err() != nil {
		return refusedFile(ledger.ErrDeadline)
	}
	out := ImportResult{AsOf: asOf.Format(store.DateLayout), Mode: mode, DryRun: dry == "true", Skipped: len(res.Bad), Refused: []RefusedRow{}}
	for _, b := range res.Bad[:min(len(res.Bad), maxRefusedListed)] {
		row := b.Row
		if lines && row-2 >= 0 && row-2 < len(rows) {
			row = rows[row-2]
		}
		out.Refused = append(out.Refused, RefusedRow{Row: row, Reason: b.Reason})
	}
	if len(res.Lines) == 0 {
		p := invalid([]FieldError{{Field: "body", Detail: "no row of the ledger can be imported; nothing was imported"}})
		for _, r := range out.Refused {
			p.Errors = append(p.Errors, FieldError{Field: "row " + strconv.Itoa(r.Row), Detail: r.Reason})
		}
		return p
	}
	an := a.analyst(c)
	var queue []string
	if res.Unlinked > 0 {
		if queue, err = a.linkByName(c.Request().Context(), an, res.Lines); err != nil {
			return err
		}
	}
	update := mode == store.ModeUpdate
	if out.DryRun {
		plan, err := a.store.PlanImport(c.Request().Context(), an, asOf, res.Lines, update)
		if err != nil {
			return storeRefusal(err)
		}
		out.Imported, out.Summary = len(res.Lines), plan.Text()
		if len(queue) > 0 {
			out.Summary += fmt.Sprintf("; %d names would be queued to be looked up through the service's search by a signed-in analyst", len(queue))
		}
		return c.JSON(http.StatusOK, out)
	}
	name := "api-" + out.AsOf + fileSuffix(lines, t.Format)
	rec, err := a.store.ImportLedger(c.Request().Context(), an, store.ImportSpec{AsOf: asOf, File: name, Lines: res.Lines,
		Skipped: len(res.Bad), Update: update, Queue: queue})
	if err != nil {
		return storeRefusal(err)
	}
	out.ID, out.Imported, out.Summary = strconv.FormatInt(rec.ID, 10), rec.Imported, rec.Summary
	c.Response().Header().Set("Location", "/accounts?import="+out.ID)
	return c.JSON(http.StatusCreated, out)
}

// fileSuffix names what was pushed in the team's log of imports.
func fileSuffix(lines bool, format string) string {
	if lines {
		return ".jsonl"
	}
	return "." + strings.ToLower(format)
}

// refusedFile is a ledger refused whole: 413 past its size, else 422.
func refusedFile(err error) error {
	msg := strings.TrimPrefix(err.Error(), "ledger: ")
	if errors.Is(err, ledger.ErrTooLarge) {
		return problem(http.StatusRequestEntityTooLarge, "%s; nothing was imported.", msg)
	}
	return invalid([]FieldError{{Field: "body", Detail: msg + "; nothing was imported"}})
}

// storeRefusal is an import the store refused, as a 422, or its error.
func storeRefusal(err error) error {
	var ve *store.ValidationError
	if errors.As(err, &ve) {
		return invalid([]FieldError{{Field: ve.Field, Detail: ve.Message}})
	}
	if errors.Is(err, store.ErrAccountsFull) {
		return invalid([]FieldError{{Field: "body", Detail: strings.TrimPrefix(err.Error(), "store: ")}})
	}
	return err
}

// linkByName links the lines the ledger links to no business to the one
// business of their name among those the team's newest ledger links, as
// the import page does, and returns the accounts whose names are still
// unknown (ledger.UnknownNames). The import page searches such names
// through the service; a token holds no session key, so a push queues
// them all, for a signed-in analyst to look up from the import page.
func (a *API) linkByName(ctx context.Context, an store.Analyst, lines []store.LedgerLine) ([]string, error) {
	have, err := a.store.LedgerBalances(ctx, an, "")
	if err != nil {
		return nil, err
	}
	ledger.LinkByName(lines, ledger.KnownOf(have))
	linked, err := a.store.LinkedAccounts(ctx, an)
	if err != nil {
		return nil, err
	}
	return ledger.Accounts(lines, ledger.UnknownNames(lines, linked)), nil
}
