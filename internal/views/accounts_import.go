package views

import (
	"slices"
	"strconv"

	"creditdash/internal/amount"
	"creditdash/internal/ledger"
	"creditdash/internal/store"
)

// AccountsImportPage is the ledger import: the upload form and, once a
// file is read, its preview.
type AccountsImportPage struct {
	Base
	// AsOf is the date typed (YYYY-MM-DD); AsOfError says why it is
	// refused.
	AsOf      string
	AsOfError string
	// FileError says why the file is refused whole.
	FileError string
	// Samples are the shipped sample ledgers offered in demo mode.
	Samples []SampleLedger
	// History is the demo ledger history's button label, in demo mode.
	History string
	Preview *ImportPreview
	// Plan is what importing the previewed file would do (nil until the
	// file, its columns and its date are all good); Update is the mode
	// chosen ("update" rather than "full ledger").
	Plan   *ImportPlanView
	Update bool
	// Versions are the ledgers imports replaced, kept to be restored.
	Versions []LedgerVersionRow
	// Waiting counts the names queued for the service's search, Queued
	// the oldest of them (nil when none wait).
	Waiting int
	Queued  []QueuedNameRow
	// LookupsWhen says when the user can have them looked up.
	LookupsWhen string
}

// ImportSearches is how many names one import looks up through the
// service's Business/Search at most (the handlers spend it).
const ImportSearches = 20

// QueuedNameRow is a name waiting for the service's search.
type QueuedNameRow struct {
	Account, Name, By, At string
}

// NewQueuedNameRows are the queued names as the import page lists them.
func NewQueuedNameRows(qs []store.QueuedLookup) []QueuedNameRow {
	out := make([]QueuedNameRow, 0, len(qs))
	for _, q := range qs {
		out = append(out, QueuedNameRow{Account: q.Account, Name: q.Name, By: q.QueuedBy, At: DateTime(q.QueuedAt)})
	}
	return out
}

// SampleLedger is one sample ledger the import page offers.
type SampleLedger struct {
	Name  string
	Label string
	AsOf  string
}

// ImportPreview is what an import would do, before it does it.
type ImportPreview struct {
	Token    string
	File     string
	Format   string
	Encoding string
	// HeaderRow is the row the headers were read from.
	HeaderRow int
	Columns   []ImportColumn
	Fields    []ImportField
	// Head is the file's first data rows as read.
	Head []ImportRow
	// Rows is how many data rows the file has; Valid how many would be
	// imported.
	Rows, Valid int
	Bad         []ledger.Problem
	// BadMore is how many refused rows are not listed.
	BadMore      int
	NoAging      bool
	MappingError string
	// Summary is what the file was read as: the decimal separator, an
	// open-items list's documents, the total, subtotal, heading and footer
	// rows left out, the accounts not linked to a business.
	Summary []string
	// Reconciliation is the file's total beside the total imported
	// ("file total 909,626.15, imported 909,626.15"); Reconciled says
	// they agree.
	Reconciliation string
	Reconciled     bool
	// Differs says the file's total and the total imported differ.
	Differs bool
	// AskDecimal offers the choice of decimal separator: the file's
	// amounts do not say which it uses and some read two ways. Decimal
	// is the choice made ("point", "comma" or "" for the file's own).
	AskDecimal bool
	Decimal    string
	// AskDates offers the choice of the slashed dates' order: no date of
	// the file says whether the day or the month comes first and some
	// read two ways (03/04/2026). Dates is the choice made ("day",
	// "month" or "" for the file's own).
	AskDates bool
	Dates    string
	// Refusals count the refused rows by kind of reason.
	Refusals []string
	// CanImport is false when nothing could be imported.
	CanImport bool
}

// ImportColumn is one column of the file and the field it is read as.
type ImportColumn struct {
	Index  int
	Header string
	Field  string
}

// Name is the column's form field.
func (c ImportColumn) Name() string { return "map_" + strconv.Itoa(c.Index) }

// ID is the column's select's id.
func (c ImportColumn) ID() string { return "map-" + strconv.Itoa(c.Index) }

// ImportField is one choice of a column's field.
type ImportField struct {
	Value, Label string
}

// ImportRow is one data row as the file holds it.
type ImportRow struct {
	Number int
	Cells  []string
	// Problem is why the row would be refused, "" when it would not.
	Problem string
}

// maxBadListed bounds the refused rows the preview lists.
const maxBadListed = 1000

// previewHead is how many data rows the preview shows (at most the
// ledger.HeadRows a table keeps).
const previewHead = ledger.HeadRows

// Describe says what the file was read as, in one sentence: "CSV, comma
// separated, UTF-8; headers on row 1; 12 data rows."
func (p *ImportPreview) Describe() string {
	s := p.Format
	if p.Encoding != "" {
		s += ", " + p.Encoding
	}
	return s + "; headers on row " + strconv.Itoa(p.HeaderRow) + "; " + Plural(p.Rows, "data row") + "."
}

// NewImportPreview describes what importing t through m would do.
// mapErr is why the mapping cannot be used, in the analyst's words. res
// is t already read through m and o, when the caller has it: a 50,000-row
// file is then not read through again here; nil reads it.
func NewImportPreview(token, file string, t *ledger.Table, m ledger.Mapping, o ledger.Options, res *ledger.Result, mapErr string) *ImportPreview {
	p := &ImportPreview{Token: token, File: Clip(file, 120), Format: t.Format, Encoding: t.Encoding, HeaderRow: t.HeaderRow, Rows: t.Count}
	p.AskDecimal = t.Decimal == amount.Unknown && t.Ambiguous > 0
	p.Decimal = map[amount.Convention]string{amount.Point: "point", amount.Comma: "comma"}[o.Decimal]
	p.AskDates = t.Dates == ledger.OrderUnknown && t.AmbiguousDates > 0
	p.Dates = map[ledger.DateOrder]string{ledger.DayFirst: "day", ledger.MonthFirst: "month"}[o.Dates]
	if t.Format == "CSV" {
		p.Format += ", " + map[rune]string{',': "comma", ';': "semicolon", '\t': "tab"}[t.Delimiter] + " separated"
	}
	p.Fields = append(p.Fields, ImportField{Value: "", Label: ledger.Ignore.Label()})
	for _, f := range ledger.Fields {
		p.Fields = append(p.Fields, ImportField{Value: string(f), Label: f.Label()})
	}
	for i, hdr := range t.Header {
		f := ledger.Ignore
		if i < len(m) {
			f = m[i]
		}
		p.Columns = append(p.Columns, ImportColumn{Index: i, Header: Clip(hdr, 60), Field: string(f)})
	}
	head := t.Head[:min(len(t.Head), previewHead)]
	// Only the shown rows' reasons are looked up.
	bad, lastShown := map[int]string{}, 0
	if len(head) > 0 {
		lastShown = head[len(head)-1].Number
	}
	if mapErr != "" {
		p.MappingError = mapErr
	} else {
		if res == nil {
			v := ledger.Validate(t, m, o)
			res = &v
		}
		p.Valid, p.NoAging, p.CanImport = res.Valid, res.NoAging, res.Valid > 0
		p.summarise(t, *res)
		for i, b := range res.Bad {
			if b.Row <= lastShown {
				bad[b.Row] = b.Reason
			}
			if i < maxBadListed {
				p.Bad = append(p.Bad, b)
			}
		}
		p.BadMore = max(len(res.Bad)-maxBadListed, 0)
	}
	for _, r := range head {
		row := ImportRow{Number: r.Number, Problem: bad[r.Number]}
		for i := range t.Header {
			row.Cells = append(row.Cells, Clip(r.Cell(i), 60))
		}
		p.Head = append(p.Head, row)
	}
	return p
}

// summarise says what the file was read as and reconciles its total.
func (p *ImportPreview) summarise(t *ledger.Table, res ledger.Result) {
	switch {
	case res.Decimal == amount.Unknown:
		p.Summary = append(p.Summary, "No amount shows the decimal separator; amounts are read as written, and one that could be read two ways is skipped")
	case t.Decimal == amount.Unknown || p.Decimal != "":
		p.Summary = append(p.Summary, "Amounts read as "+res.Decimal.String()+" (as chosen)")
	default:
		p.Summary = append(p.Summary, "Amounts read as "+res.Decimal.String()+", as the file writes them")
	}
	switch order := map[ledger.DateOrder]string{ledger.DayFirst: "day first (31/10/2026)", ledger.MonthFirst: "month first (10/31/2026)"}; {
	case p.AskDates && res.Dates == ledger.OrderUnknown:
		p.Summary = append(p.Summary, "No date shows whether the day or the month comes first; a slashed date that could be read two ways (03/04/2026) is skipped until the order is chosen")
	case p.Dates != "":
		p.Summary = append(p.Summary, "Slashed dates read "+order[res.Dates]+" (as chosen)")
	case res.Dates != ledger.OrderUnknown:
		p.Summary = append(p.Summary, "Slashed dates read "+order[res.Dates]+", as the file's own dates show")
	}
	if res.OpenItems {
		p.Summary = append(p.Summary, "An open-items list: "+Plural(res.Items, "document")+" summed into "+Plural(res.Valid, "account")+
			", each aged from its due date (or its date plus the terms) at the as-of date")
	}
	if n := res.Totals + res.Subtotals + res.Notes; n > 0 {
		p.Summary = append(p.Summary, "Not imported: "+Plural(res.Totals, "total row")+", "+Plural(res.Subtotals, "subtotal row")+", "+
			Plural(res.Notes, "heading or footer row"))
	}
	if res.Unlinked > 0 {
		p.Summary = append(p.Summary, Plural(res.Unlinked, "account")+" name no business id, customer id or supplier id: each is linked to the one business of its name the team's accounts know, and otherwise imported not linked")
	}
	if res.FileTotal != nil {
		p.Reconciled = res.Reconciled()
		p.Reconciliation = "File total " + signedAmount(*res.FileTotal) + ", imported " + signedAmount(res.Imported)
		if p.Differs = !p.Reconciled; p.Differs {
			p.Reconciliation += ": they differ by " + signedAmount(*res.FileTotal-res.Imported) + " (the rows skipped below)"
		}
	} else {
		p.Reconciliation = "The file gives no total row; imported " + signedAmount(res.Imported)
	}
	kinds := res.ByKind()
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		p.Refusals = append(p.Refusals, k+": "+strconv.Itoa(kinds[k]))
	}
}

// signedAmount writes an amount with two decimals and a minus when below zero.
func signedAmount(v float64) string {
	if v < 0 && Decimal(v, 2) != "0.00" {
		return "-" + Decimal(v, 2)
	}
	return Decimal(v, 2)
}
