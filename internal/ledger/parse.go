package ledger

import (
	"fmt"
	"math"
	"strings"
	"time"

	"creditdash/internal/amount"
	"creditdash/internal/store"
)

// Problem is a refused row: its number in the file, why, and the kind of
// reason the preview counts refusals by.
type Problem struct {
	Row    int
	Reason string
	Kind   string
}

// Options are what the analyst decides for a file: the date its balances
// are as of (open items are aged at it) and, when the file's amounts do
// not show it, its decimal separator.
type Options struct {
	AsOf    time.Time
	Decimal amount.Convention
	// Dates is the order of the slashed dates' day and month, as chosen
	// when the file's dates do not show it.
	Dates DateOrder
}

// Result is a table read through a mapping: what the importer hands the
// store, one line per account key, and what the preview says of the file.
type Result struct {
	// Lines are the accounts, in the order the file first names them;
	// Validate leaves them out. An account's key is the file's customer
	// number, or its name where there is none; a line without a business
	// id, customer id or supplier id is imported "not linked".
	Lines []store.LedgerLine
	// Valid is how many accounts would be imported; Unlinked how many of
	// them the file links to no business.
	Valid, Unlinked int
	// Bad are the refused rows, in file order.
	Bad []Problem
	// NoAging says no aging column is mapped and the file is no
	// open-items list: each balance counts as current.
	NoAging bool
	// OpenItems says the file lists documents (invoices, credit memos,
	// payments), Items how many were summed into the accounts.
	OpenItems bool
	Items     int
	// Decimal is the decimal separator the amounts were read with, Dates
	// the order the slashed dates were read in.
	Decimal amount.Convention
	Dates   DateOrder
	// Totals, Subtotals and Notes count the rows recognised as the
	// file's total, its subtotals, and its headings and footers: none
	// is imported.
	Totals, Subtotals, Notes int
	// FileTotal is the balance the file's total row gives, nil without
	// one; Imported is the sum of the balances imported.
	FileTotal *float64
	Imported  float64
}

// Reconciled says the file's total equals the total imported, to the
// cent.
func (r Result) Reconciled() bool {
	return r.FileTotal != nil && math.Abs(*r.FileTotal-r.Imported) < 0.005
}

// ByKind counts the refused rows by kind of reason.
func (r Result) ByKind() map[string]int {
	out := map[string]int{}
	for _, p := range r.Bad {
		out[p.Kind]++
	}
	return out
}

// Parse reads every data row through the mapping, which must pass Check.
// Total, subtotal, heading and footer rows are recognised and counted,
// never imported. A row is refused for an amount that is not one (or that
// could be read two ways), buckets that do not add up to the balance
// within 1, an account listed twice (an open-items list sums them
// instead), no account, a negative limit or a formula cell.
func Parse(t *Table, m Mapping, o Options) Result { return readLines(t, m, o, true) }

// Validate is Parse for the preview: everything but the lines.
func Validate(t *Table, m Mapping, o Options) Result { return readLines(t, m, o, false) }

func readLines(t *Table, m Mapping, o Options, keep bool) Result {
	res := Result{NoAging: true, Decimal: o.Decimal}
	if res.Decimal == amount.Unknown {
		res.Decimal = t.Decimal
	}
	for _, f := range buckets {
		if m.Has(f) {
			res.NoAging = false
		}
	}
	for _, f := range lineFields {
		if m.Has(f) {
			res.OpenItems, res.NoAging = true, false
		}
	}
	res.Dates = o.Dates
	if res.Dates == OrderUnknown {
		res.Dates = t.Dates
	}
	rd := rowReader{m: m, conv: res.Decimal, dates: res.Dates, asOf: o.AsOf, noAging: res.NoAging, open: res.OpenItems}
	// The accounts in file order, and where each is by its key: a line
	// is kept once, in the slice the result hands on (no line of its own
	// on the heap, no copy at the end).
	index := make(map[string]int32, min(t.Count, MaxAccounts))
	var lines []store.LedgerLine
	var first []int32
	if !res.OpenItems { // one row, one account at most
		lines, first = make([]store.LedgerLine, 0, min(t.Count, MaxAccounts)), make([]int32, 0, min(t.Count, MaxAccounts))
	}
	group := ""
	refuse := func(row int, kind, reason string) {
		res.Bad = append(res.Bad, Problem{Row: row, Reason: reason, Kind: kind})
	}
	// Read already read the file through with the same reader, so reading
	// it again meets no error but its deadline.
	_ = t.Each(func(row Row) error {
		switch kind, v := rd.classify(row, group); kind {
		case rowTotal:
			res.Totals++
			if v != nil {
				res.FileTotal = v
			}
			return nil
		case rowSubtotal:
			res.Subtotals++
			return nil
		case rowNote:
			res.Notes++
			// A customer's heading over its documents, for the lines
			// whose customer cell is blank (QuickBooks' Detail).
			group = firstText(row)
			return nil
		}
		l, kind, reason := rd.parse(row, group)
		if reason != "" {
			refuse(row.Number, kind, reason)
			return nil
		}
		i, seen := index[l.Account]
		switch {
		case seen && !res.OpenItems:
			refuse(row.Number, "listed twice", fmt.Sprintf("account %s is listed twice (first on row %d)", clip(l.Account), first[i]))
			return nil
		case seen:
			sum(&lines[i], l)
		case len(lines) >= MaxAccounts:
			refuse(row.Number, "too many accounts", "the file holds more than 50,000 accounts; the rest are not imported")
			return nil
		default:
			// The row's cells go with the next row: what is kept is
			// copied, into one string per line.
			compact(&l)
			index[l.Account] = int32(len(lines))
			lines, first = append(lines, l), append(first, int32(row.Number))
		}
		if res.OpenItems {
			res.Items++
		}
		return nil
	})
	for i := range lines {
		l := &lines[i]
		if res.OpenItems {
			roundLine(l)
		}
		res.Valid++
		res.Imported += l.Balance
		if l.BusinessID == 0 && l.CustomerID == "" && l.SupplierID == "" {
			res.Unlinked++
		}
	}
	if keep {
		res.Lines = lines
	}
	res.Imported = math.Round(res.Imported*100) / 100
	return res
}

// sum adds an open item to its account's line.
func sum(dst *store.LedgerLine, l store.LedgerLine) {
	dst.Balance += l.Balance
	dst.Current += l.Current
	dst.Days1to30 += l.Days1to30
	dst.Days31to60 += l.Days31to60
	dst.Days61to90 += l.Days61to90
	dst.DaysOver90 += l.DaysOver90
	if dst.ERPLimit == nil {
		dst.ERPLimit = l.ERPLimit
	}
	if dst.Terms == nil {
		dst.Terms = l.Terms
	}
}

// roundLine rounds an account's sums to the cent, so the float sums of a
// thousand items read as the file's.
func roundLine(l *store.LedgerLine) {
	for _, v := range []*float64{&l.Balance, &l.Current, &l.Days1to30, &l.Days31to60, &l.Days61to90, &l.DaysOver90} {
		*v = math.Round(*v*100) / 100
	}
}

// compact copies a line's text into one new string the fields share.
func compact(l *store.LedgerLine) {
	var b strings.Builder
	b.Grow(len(l.Account) + len(l.Name) + len(l.Owner) + len(l.CustomerID) + len(l.SupplierID))
	fields := [...]*string{&l.Account, &l.Name, &l.Owner, &l.CustomerID, &l.SupplierID}
	for _, f := range fields {
		b.WriteString(*f)
	}
	all, at := b.String(), 0
	for _, f := range fields {
		n := len(*f)
		*f, at = all[at:at+n], at+n
	}
}

// firstText is a row's first non-empty cell.
func firstText(r Row) string {
	for _, c := range r.Cells {
		if c != "" {
			return c
		}
	}
	return ""
}
