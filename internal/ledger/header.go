package ledger

import (
	"fmt"
	"strings"
	"unicode"
)

// Field is a column's meaning, named as the canonical header.
type Field string

// The fields a ledger's columns can hold.
const (
	Ignore     Field = ""
	Account    Field = "account"
	Name       Field = "name"
	BusinessID Field = "business_id"
	CustomerID Field = "customer_id"
	SupplierID Field = "supplier_id"
	Balance    Field = "balance"
	Current    Field = "current"
	Days1to30  Field = "days_1_30"
	Days31to60 Field = "days_31_60"
	Days61to90 Field = "days_61_90"
	DaysOver90 Field = "days_over_90"
	Limit      Field = "credit_limit"
	Terms      Field = "terms_days"
	Owner      Field = "owner"
	// An open-items list's lines: each a document (invoice, credit memo,
	// payment) whose open amount is summed per account and aged from its
	// due date, or its date plus the terms.
	Document Field = "document"
	DocDate  Field = "document_date"
	DueDate  Field = "due_date"
)

// Fields lists them in the order the preview offers them.
var Fields = []Field{Account, Name, BusinessID, CustomerID, SupplierID, Balance, Current, Days1to30, Days31to60,
	Days61to90, DaysOver90, Limit, Terms, Owner, Document, DocDate, DueDate}

// lineFields mark a file as an open-items list.
var lineFields = []Field{Document, DocDate, DueDate}

// buckets are the aging fields, which add up to the balance.
var buckets = []Field{Current, Days1to30, Days31to60, Days61to90, DaysOver90}

// bucket reports an aging field.
func (f Field) bucket() bool {
	for _, b := range buckets {
		if f == b {
			return true
		}
	}
	return false
}

// Label is the field's name in the preview.
func (f Field) Label() string {
	if f == Ignore {
		return "(not imported)"
	}
	return string(f)
}

// ParseField reads a field's name as the preview's form sends it.
func ParseField(s string) (Field, bool) {
	if s == "" {
		return Ignore, true
	}
	for _, f := range Fields {
		if string(f) == s {
			return f, true
		}
	}
	return Ignore, false
}

// aliases maps a header, folded by fold, to its field: the canonical
// names and the spellings of common ERP aging reports.
var aliases = map[string]Field{}

func init() {
	for f, names := range map[Field][]string{
		Account: {"account", "account no", "account number", "account #", "acct", "acct no", "customer no", "customer no.",
			"customer number", "customer #", "cust no", "cust #", "customer account", "debtor no", "debtor number", "customer code",
			"customer id no", "sold-to", "sold-to party", "payer"},
		Name: {"name", "customer name", "account name", "company", "company name", "debtor name", "customer", "contact", "name 1",
			"customer job", "customer:job"},
		BusinessID: {"business_id", "business id", "business"},
		CustomerID: {"customer_id", "customer id", "customerid"},
		SupplierID: {"supplier_id", "supplier id", "supplierid"},
		// An open-items list's open amount is its balance; its
		// original amount ("Amount", "Original Amount") is not read.
		Balance: {"balance", "total due", "total", "total balance", "balance due", "amount due", "outstanding",
			"total outstanding", "open balance", "total ar", "ar balance", "remaining amount", "open amount",
			"amount remaining", "amount open", "amount in local currency", "amount in lc", "amt in loc.cur.", "remaining amt. (lcy)",
			"remaining amount (lcy)", "open amount (lcy)"},
		Current:    {"current", "not due", "current due", "not yet due"},
		Days1to30:  {"days_1_30", "1-30", "1 - 30", "1-30 days", "days 1-30", "1 to 30", "past due 1-30", "0-30"},
		Days31to60: {"days_31_60", "31-60", "31 - 60", "31-60 days", "days 31-60", "31 to 60", "past due 31-60"},
		Days61to90: {"days_61_90", "61-90", "61 - 90", "61-90 days", "days 61-90", "61 to 90", "past due 61-90"},
		DaysOver90: {"days_over_90", "over 90", "over 90 days", "91+", "90+", "> 90", ">90", "91 and over", "91 +",
			"days over 90", "more than 90", "over90", "past due over 90", "older", "3 months and older"},
		Limit: {"credit_limit", "credit limit", "limit", "credit line", "approved limit"},
		Terms: {"terms_days", "terms", "payment terms", "terms days", "net days", "terms (days)"},
		Owner: {"owner", "account owner", "analyst", "credit analyst", "collector"},
		Document: {"document", "document no", "document no.", "document number", "documentno", "doc. no.", "num", "no.", "invoice", "invoice no",
			"invoice number", "invoice #", "transaction", "reference", "ref", "external document no."},
		DocDate: {"document_date", "document date", "doc. date", "date", "invoice date", "posting date", "transaction date",
			"pstng date"},
		DueDate: {"due_date", "due date", "net due date", "due", "net due dt", "due dt"},
	} {
		for _, n := range names {
			if g, dup := aliases[fold(n)]; dup && g != f {
				panic("ledger: header " + n + " names both " + string(g) + " and " + string(f))
			}
			aliases[fold(n)] = f
		}
	}
}

// Xero's aged reports name their buckets by months past due. Its Aged
// Receivables Summary and Detail (ageing by due date, periods of one
// month) give Current, 1 Month, 2 Months, 3 Months and Older: up to one,
// two and three months past due, then more. A layout with a "< 1 Month"
// column counts one month later: < 1 Month, 1 Month, 2 Months, then Older.
var (
	months        = map[string]Field{"1month": Days1to30, "2months": Days31to60, "3months": Days61to90}
	monthsShifted = map[string]Field{"lt1month": Days1to30, "1month": Days31to60, "2months": Days61to90}
)

// fold keeps a header's letters and digits, lower case, and "+" and ">"
// as words, so "Customer No.", "customer_no" and "CUSTOMER NO" agree.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case r == '+':
			b.WriteString("plus")
		case r == '>':
			b.WriteString("gt")
		case r == '<':
			b.WriteString("lt")
		case r == '#':
			b.WriteString("no")
		}
	}
	return b.String()
}

// Mapping is each column's field, by column index.
type Mapping []Field

// Recognise maps each header to its field; a field named twice is taken
// from its first column only.
func Recognise(header []string) Mapping {
	m := make(Mapping, len(header))
	taken := map[Field]bool{}
	byMonths := months
	for _, h := range header {
		if fold(h) == "lt1month" {
			byMonths = monthsShifted
		}
	}
	for i, h := range header {
		f := aliases[fold(h)]
		if f == Ignore {
			f = byMonths[fold(h)]
		}
		if f != Ignore && !taken[f] {
			m[i], taken[f] = f, true
		}
	}
	return m
}

// Mapping is the table's recognised mapping: its header's, with a blank
// first header cell read as the customer's name when no column names the
// customer (QuickBooks leaves it blank).
func (t *Table) Mapping() Mapping {
	m := Recognise(t.Header)
	if len(t.Header) > 0 && t.Header[0] == "" && !m.Has(Name) && !m.Has(Account) {
		m[0] = Name
	}
	return m
}

// headerIndex picks the header among the first rows: the row that names
// the most fields, a balance or an aging bucket among them, and holds no
// amount (a "Total" row under a title block names a balance too, but
// holds its sums). With no such row, the first.
func headerIndex(rows []Row) int {
	best, score := 0, 0
	for i, r := range rows {
		m := Recognise(r.Cells)
		if !m.Has(Balance) && !m.Has(Current) {
			continue
		}
		n := 0
		for j, f := range m {
			if f != Ignore {
				n++
			} else if _, ok, err := amountCell(r, j, 0); ok && err == nil {
				n = -1
				break
			}
		}
		if n > score {
			best, score = i, n
		}
	}
	return best
}

// Has reports whether a column holds f.
func (m Mapping) Has(f Field) bool { return m.Column(f) >= 0 }

// Column is the index of f's column, -1 when none holds it.
func (m Mapping) Column(f Field) int {
	for i, g := range m {
		if g == f {
			return i
		}
	}
	return -1
}

// Check refuses a mapping without a balance or with a field in two
// columns, naming the header.
func (m Mapping) Check(header []string) error {
	seen := map[Field]int{}
	for i, f := range m {
		if f == Ignore {
			continue
		}
		if j, ok := seen[f]; ok {
			return fmt.Errorf("ledger: %s is chosen for two columns, “%s” and “%s”", f, clip(cellOf(header, j)), clip(cellOf(header, i)))
		}
		seen[f] = i
	}
	if !m.Has(Balance) {
		return ErrNoBalance
	}
	return nil
}

func cellOf(cells []string, i int) string {
	if i < len(cells) {
		return cells[i]
	}
	return ""
}
