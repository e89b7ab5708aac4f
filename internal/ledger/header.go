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
)

// Fields lists them in the order the preview offers them.
var Fields = []Field{Account, Name, BusinessID, CustomerID, SupplierID, Balance, Current, Days1to30, Days31to60,
	Days61to90, DaysOver90, Limit, Terms, Owner}

// buckets are the aging fields, which add up to the balance.
var buckets = []Field{Current, Days1to30, Days31to60, Days61to90, DaysOver90}

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
			"customer number", "customer #", "cust no", "cust #", "customer account", "debtor no", "debtor number", "customer code"},
		Name:       {"name", "customer name", "account name", "company", "company name", "debtor name", "customer"},
		BusinessID: {"business_id", "business id", "business"},
		CustomerID: {"customer_id", "customer id", "customerid"},
		SupplierID: {"supplier_id", "supplier id", "supplierid"},
		Balance: {"balance", "total due", "total", "total balance", "balance due", "amount due", "outstanding",
			"total outstanding", "open balance", "total ar", "ar balance"},
		Current:    {"current", "not due", "current due", "not yet due"},
		Days1to30:  {"days_1_30", "1-30", "1 - 30", "1-30 days", "days 1-30", "1 to 30", "past due 1-30", "0-30"},
		Days31to60: {"days_31_60", "31-60", "31 - 60", "31-60 days", "days 31-60", "31 to 60", "past due 31-60"},
		Days61to90: {"days_61_90", "61-90", "61 - 90", "61-90 days", "days 61-90", "61 to 90", "past due 61-90"},
		DaysOver90: {"days_over_90", "over 90", "over 90 days", "91+", "90+", "> 90", ">90", "91 and over", "91 +",
			"days over 90", "more than 90", "over90", "past due over 90"},
		Limit: {"credit_limit", "credit limit", "limit", "credit line", "approved limit"},
		Terms: {"terms_days", "terms", "payment terms", "terms days", "net days", "terms (days)"},
		Owner: {"owner", "account owner", "analyst", "credit analyst", "collector"},
	} {
		for _, n := range names {
			aliases[fold(n)] = f
		}
	}
}

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
	for i, h := range header {
		f := aliases[fold(h)]
		if f != Ignore && !taken[f] {
			m[i], taken[f] = f, true
		}
	}
	return m
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
