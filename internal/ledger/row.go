package ledger

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"creditdash/internal/amount"
	"creditdash/internal/store"
)

// rowKind is what a row of the data is.
type rowKind int

const (
	rowData rowKind = iota
	rowTotal
	rowSubtotal
	rowNote // a heading or footer: text, no balance
)

// rowReader reads the rows of one file through one mapping.
type rowReader struct {
	m       Mapping
	conv    amount.Convention
	dates   DateOrder
	asOf    time.Time
	noAging bool
	open    bool
}

// grandTotals are the first cells of a report's total row; subtotals
// start as QuickBooks' "Total for …", NetSuite's "Total - …" and SAP's
// "*" do.
var (
	grandTotals    = map[string]bool{"total": true, "totals": true, "grand total": true, "report total": true, "total ar": true, "total a/r": true, "total receivables": true, "total accounts receivable": true, "**": true, "***": true}
	subtotalPrefix = []string{"total for ", "total - ", "total: ", "subtotal", "sub-total", "sub total", "*"}
)

// classify tells a total, subtotal, heading or footer row from data;
// v is a total row's balance. group is the heading the row is under:
// "Total <heading>" closes it (Xero's Detail report), whatever the name.
func (rd *rowReader) classify(r Row, group string) (rowKind, *float64) {
	first := strings.ToLower(strings.TrimSpace(firstText(r)))
	grand := grandTotals[first] || strings.HasPrefix(first, "**")
	sub := !grand && (slicesHasPrefix(first, subtotalPrefix) ||
		group != "" && first == "total "+strings.ToLower(strings.TrimSpace(group)))
	if grand || sub {
		var v *float64
		if x, ok, err := amountCell(r, rd.m.Column(Balance), rd.conv); ok && err == nil {
			v = &x
		}
		if grand {
			return rowTotal, v
		}
		return rowSubtotal, v
	}
	if r.Formula == "" && r.Cell(rd.m.Column(Balance)) == "" {
		full := 0
		for _, c := range r.Cells {
			if c != "" {
				full++
			}
		}
		if full <= 1 {
			return rowNote, nil
		}
	}
	return rowData, nil
}

func slicesHasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// amountCell reads column i of r as an amount: a workbook's number as
// stored, text by the convention. ok is false for an empty cell.
func amountCell(r Row, i int, c amount.Convention) (float64, bool, error) {
	s := r.Cell(i)
	if s == "" {
		return 0, false, nil
	}
	var v float64
	if i < len(r.Numeric) && r.Numeric[i] {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, false, fmt.Errorf("“%s” is not a number", clip(s))
		}
		v = f
	} else {
		f, ok, err := amount.InFile(s, c)
		if err != nil || !ok {
			return 0, ok, err
		}
		v = f
	}
	if err := store.CheckAmount(v, true); err != nil {
		return 0, false, fmt.Errorf("“%s” is %s", clip(s), err.Error())
	}
	return v, true, nil
}

// isAmbiguous reports an amount that could be read two ways.
func isAmbiguous(err error) bool { return errors.Is(err, amount.ErrAmbiguous) }

// parse reads one data row into a line; kind and reason say why it is
// refused, "" when it is not. group is the customer heading the row is
// under, for an open-items list without a customer column.
func (rd *rowReader) parse(row Row, group string) (l store.LedgerLine, kind, reason string) {
	m := rd.m
	if row.Formula != "" {
		return l, "formula", fmt.Sprintf("column %s holds a formula; formulas are not imported (paste the values instead)", row.Formula)
	}
	get := func(f Field) string { return row.Cell(m.Column(f)) }
	l.Account, l.Name, l.Owner = get(Account), get(Name), get(Owner)
	l.CustomerID, l.SupplierID = get(CustomerID), get(SupplierID)
	if l.Name == "" && rd.open {
		l.Name = group
	}
	if l.Account == "" {
		l.Account = l.Name // a names-only file: the name is the key
	}
	switch {
	case l.Account == "":
		return l, "no account", "no customer number or name"
	case utf8.RuneCountInString(l.Account) > 64:
		return l, "no account", "the customer number (or, without one, the name) is longer than 64 characters"
	case l.Owner != "" && !store.ValidUserName(l.Owner):
		return l, "owner", fmt.Sprintf("the owner “%s” is not a user name (up to 64 letters, digits and . _ - @ +, as one signs in with)", clip(l.Owner))
	case utf8.RuneCountInString(l.CustomerID) > 64 || utf8.RuneCountInString(l.SupplierID) > 64 || strings.ContainsAny(l.CustomerID+l.SupplierID, " \t"):
		return l, "identifier", "customer and supplier ids are codes of up to 64 characters without spaces"
	}
	if raw := get(BusinessID); raw != "" {
		id, err := strconv.ParseInt(strings.TrimSuffix(raw, ".0"), 10, 32)
		if err != nil || id <= 0 {
			return l, "identifier", fmt.Sprintf("business_id “%s” is not a business id (a whole number such as 1001)", clip(raw))
		}
		l.BusinessID = int32(id)
	}
	// The refusals below are concatenated, not formatted: a field passed
	// to fmt would move this line, which amounts points into, to the heap
	// for every row read.
	amounts := []struct {
		f   Field
		dst *float64
	}{{Balance, &l.Balance}, {Current, &l.Current}, {Days1to30, &l.Days1to30}, {Days31to60, &l.Days31to60},
		{Days61to90, &l.Days61to90}, {DaysOver90, &l.DaysOver90}}
	if rd.open {
		amounts = amounts[:1] // aged from the dates below
	}
	for _, a := range amounts {
		v, ok, err := amountCell(row, m.Column(a.f), rd.conv)
		switch {
		case isAmbiguous(err):
			return l, "ambiguous amount", string(a.f) + " " + err.Error()
		case err != nil:
			return l, "not a number", string(a.f) + " " + err.Error()
		case a.f == Balance && !ok:
			return l, "no balance", "no balance"
		}
		*a.dst = v
	}
	if raw := get(Terms); raw != "" {
		d, ok := termsDays(raw)
		if !ok {
			return l, "terms", fmt.Sprintf("terms_days “%s” is not a number of days from 0 to %d (such as 30 or Net 30)", clip(raw), store.MaxTermsDays)
		}
		l.Terms = &d
	}
	switch {
	case rd.open:
		if k, r := rd.age(&l, row); r != "" {
			return l, k, r
		}
	case rd.noAging:
		l.Current = l.Balance
	}
	if !rd.open && l.Balance >= 0 {
		for _, a := range amounts[1:] {
			if *a.dst < 0 {
				return l, "buckets", string(a.f) + " is negative while the balance is not (only a credit balance may be)"
			}
		}
	}
	if sum := l.Current + l.Days1to30 + l.Days31to60 + l.Days61to90 + l.DaysOver90; math.Abs(sum-l.Balance) > 1 {
		return l, "buckets", fmt.Sprintf("the aging buckets add up to %s, not to the balance %s", plain(sum), plain(l.Balance))
	}
	if m.Has(Limit) {
		v, ok, err := amountCell(row, m.Column(Limit), rd.conv)
		switch {
		case err != nil:
			return l, "not a number", fmt.Sprintf("credit_limit %s", err.Error())
		case ok && v < 0:
			return l, "not a number", fmt.Sprintf("credit_limit “%s” is below zero", clip(get(Limit)))
		case ok:
			l.ERPLimit = &v
		}
	}
	return l, "", ""
}

// age puts an open item's amount in its bucket: days past its due date
// (or its document date plus the terms) at the as-of date; an item
// without either is current.
func (rd *rowReader) age(l *store.LedgerLine, row Row) (kind, reason string) {
	due, ok, err := readDate(rowDate(row, rd.m.Column(DueDate)), rd.dates)
	if errors.Is(err, errAmbiguousDate) {
		return "ambiguous date", "due_date “" + clip(row.Cell(rd.m.Column(DueDate))) + "” " + err.Error()
	}
	if err != nil {
		return "date", "due_date “" + clip(row.Cell(rd.m.Column(DueDate))) + "” " + err.Error()
	}
	if !ok {
		doc, dok, err := readDate(rowDate(row, rd.m.Column(DocDate)), rd.dates)
		if errors.Is(err, errAmbiguousDate) {
			return "ambiguous date", "document_date “" + clip(row.Cell(rd.m.Column(DocDate))) + "” " + err.Error()
		}
		if err != nil {
			return "date", "document_date “" + clip(row.Cell(rd.m.Column(DocDate))) + "” " + err.Error()
		}
		if dok {
			terms := 0
			if l.Terms != nil {
				terms = *l.Terms
			}
			due, ok = doc.AddDate(0, 0, terms), true
		}
	}
	days := 0
	if ok && !rd.asOf.IsZero() {
		days = int(math.Floor(rd.asOf.Sub(due).Hours() / 24))
	}
	switch {
	case days <= 0:
		l.Current = l.Balance
	case days <= 30:
		l.Days1to30 = l.Balance
	case days <= 60:
		l.Days31to60 = l.Balance
	case days <= 90:
		l.Days61to90 = l.Balance
	default:
		l.DaysOver90 = l.Balance
	}
	return "", ""
}

// rowDate is a date cell's text.
func rowDate(r Row, i int) string { return r.Cell(i) }

// terms reads "30", "Net 30", "N30", "30 days".
var terms = regexp.MustCompile(`(?i)^(?:net\s*|n)?(\d{1,4})(?:\.0+)?(?:\s*days?)?$`)

func termsDays(s string) (int, bool) {
	s = strings.TrimSpace(s)
	// "30" and "Net 30", as most files write every row, need no
	// expression.
	digits := s
	if len(s) > 4 && strings.EqualFold(s[:4], "net ") {
		digits = s[4:]
	}
	if n := len(digits); n >= 1 && n <= 4 && strings.Trim(digits, "0123456789") == "" {
		d, _ := strconv.Atoi(digits)
		return d, d <= store.MaxTermsDays
	}
	m := terms.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	d, _ := strconv.Atoi(m[1])
	return d, d <= store.MaxTermsDays
}

// plain writes an amount with two decimals and no separators, as messages
// quote it.
func plain(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// clip shortens a cell quoted in a message.
func clip(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:39]) + "…"
	}
	return s
}
