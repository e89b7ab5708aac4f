package ledger

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"creditdash/internal/store"
)

// Problem is a refused row: its number in the file and why.
type Problem struct {
	Row    int
	Reason string
}

// Result is a table read through a mapping.
type Result struct {
	// Lines are the valid rows, in file order; Validate leaves them out.
	Lines []store.LedgerLine
	// Valid is how many rows are valid.
	Valid int
	// Bad are the refused rows, in file order.
	Bad []Problem
	// NoAging says no aging column is mapped: each balance counts as
	// current.
	NoAging bool
}

// Parse reads every data row through the mapping, which must pass Check.
// A row is refused for a number that is not one, buckets that do not add
// up to the balance within 1, an account listed before, no account, no
// business identifier, a negative limit or a formula cell.
func Parse(t *Table, m Mapping) Result { return readLines(t, m, true) }

// Validate is Parse for the preview: every refused row and the count of
// valid ones, without keeping the lines.
func Validate(t *Table, m Mapping) Result { return readLines(t, m, false) }

func readLines(t *Table, m Mapping, keep bool) Result {
	res := Result{NoAging: true}
	for _, f := range buckets {
		if m.Has(f) {
			res.NoAging = false
		}
	}
	if keep {
		res.Lines = make([]store.LedgerLine, 0, t.Count)
	}
	first := make(map[string]int, t.Count)
	// Read already read the text through with the same reader, so reading
	// it again meets no error.
	_ = t.Each(func(row Row) error {
		line, reason := parseRow(row, m, res.NoAging)
		if reason == "" {
			if at, dup := first[line.Account]; dup {
				reason = fmt.Sprintf("account %s is listed twice (first on row %d)", clip(line.Account), at)
			} else {
				// The row's cells go with the next row: what is kept is
				// copied, into one string per line.
				if keep {
					compact(&line)
				} else {
					line.Account = strings.Clone(line.Account)
				}
				first[line.Account] = row.Number
			}
		}
		if reason != "" {
			res.Bad = append(res.Bad, Problem{Row: row.Number, Reason: reason})
			return nil
		}
		res.Valid++
		if keep {
			res.Lines = append(res.Lines, line)
		}
		return nil
	})
	return res
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

// parseRow reads one row; reason is why it is refused, "" when it is not.
func parseRow(row Row, m Mapping, noAging bool) (store.LedgerLine, string) {
	var l store.LedgerLine
	if row.Formula != "" {
		return l, fmt.Sprintf("column %s holds a formula; formulas are not imported (paste the values instead)", row.Formula)
	}
	get := func(f Field) string { return row.Cell(m.Column(f)) }
	l.Account, l.Name, l.Owner = get(Account), get(Name), get(Owner)
	l.CustomerID, l.SupplierID = get(CustomerID), get(SupplierID)
	switch {
	case l.Account == "":
		return l, "no account number"
	case utf8.RuneCountInString(l.Account) > 64:
		return l, "the account number is longer than 64 characters"
	case l.Owner != "" && !store.ValidUserName(l.Owner):
		return l, fmt.Sprintf("the owner “%s” is not a user name (up to 64 letters, digits and . _ - @ +, as one signs in with)", clip(l.Owner))
	case utf8.RuneCountInString(l.CustomerID) > 64 || utf8.RuneCountInString(l.SupplierID) > 64 || strings.ContainsAny(l.CustomerID+l.SupplierID, " \t"):
		return l, "customer and supplier ids are codes of up to 64 characters without spaces"
	}
	if raw := get(BusinessID); raw != "" {
		id, err := strconv.ParseInt(strings.TrimSuffix(raw, ".0"), 10, 32)
		if err != nil || id <= 0 {
			return l, fmt.Sprintf("business_id “%s” is not a business id (a whole number such as 1001)", clip(raw))
		}
		l.BusinessID = int32(id)
	}
	if l.BusinessID == 0 && l.CustomerID == "" && l.SupplierID == "" {
		return l, "no business identifier (business_id, customer_id or supplier_id)"
	}
	amounts := []struct {
		f   Field
		dst *float64
	}{{Balance, &l.Balance}, {Current, &l.Current}, {Days1to30, &l.Days1to30}, {Days31to60, &l.Days31to60},
		{Days61to90, &l.Days61to90}, {DaysOver90, &l.DaysOver90}}
	for _, a := range amounts {
		raw := get(a.f)
		v, ok, err := Amount(raw)
		if err != nil {
			return l, fmt.Sprintf("%s “%s” %s", a.f, clip(raw), err.Error())
		}
		if a.f == Balance && !ok {
			return l, "no balance"
		}
		*a.dst = v
	}
	if noAging {
		l.Current = l.Balance
	}
	if l.Balance >= 0 {
		for _, a := range amounts[1:] {
			if *a.dst < 0 {
				return l, fmt.Sprintf("%s is negative while the balance is not (only a credit balance may be)", a.f)
			}
		}
	}
	if sum := l.Current + l.Days1to30 + l.Days31to60 + l.Days61to90 + l.DaysOver90; math.Abs(sum-l.Balance) > 1 {
		return l, fmt.Sprintf("the aging buckets add up to %s, not to the balance %s", plain(sum), plain(l.Balance))
	}
	if raw := get(Limit); raw != "" {
		v, _, err := Amount(raw)
		switch {
		case err != nil:
			return l, fmt.Sprintf("credit_limit “%s” %s", clip(raw), err.Error())
		case v < 0:
			return l, fmt.Sprintf("credit_limit “%s” is below zero", clip(raw))
		}
		l.Limit = &v
	}
	if raw := get(Terms); raw != "" {
		d, ok := termsDays(raw)
		if !ok {
			return l, fmt.Sprintf("terms_days “%s” is not a number of days from 0 to %d (such as 30 or Net 30)", clip(raw), store.MaxTermsDays)
		}
		l.Terms = &d
	}
	return l, ""
}

// terms reads "30", "Net 30", "N30", "30 days".
var terms = regexp.MustCompile(`(?i)^(?:net\s*|n)?(\d{1,4})(?:\.0+)?(?:\s*days?)?$`)

func termsDays(s string) (int, bool) {
	m := terms.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, false
	}
	d, _ := strconv.Atoi(m[1])
	return d, d <= store.MaxTermsDays
}

// cleaner drops what surrounds or groups an amount's digits: currency
// signs and codes, spaces and apostrophes (Swiss thousands). Built once:
// an import reads hundreds of thousands of amounts.
var cleaner = strings.NewReplacer("USD", "", "EUR", "", "GBP", "", "$", "", "€", "", "£", "",
	" ", "", "\u00a0", "", "\u202f", "", "'", "")

// needsCleaning reports whether s holds a byte cleaner may drop: most
// amounts are plain digits and separators, and skip the replacer's copy.
func needsCleaning(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c == ' ' || c == '\'' || c == '$' || c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}

// plainDecimal reports an unsigned decimal: digits with at most one dot.
func plainDecimal(s string) bool {
	digits, dot := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}

// Amount reads an amount as accountants write it: "1,234.56",
// "1.234,56", "(1,234.56)" and "-1234.56" negative, a currency sign or
// code around it. ok is false for an empty cell. NaN, infinities, exponents
// and anything past store.MaxAmount are refused.
func Amount(s string) (v float64, ok bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "-" {
		return 0, false, nil
	}
	neg := false
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		neg, s = true, s[1:len(s)-1]
	}
	if needsCleaning(s) {
		s = cleaner.Replace(s)
	}
	if strings.HasPrefix(s, "-") {
		neg, s = !neg, s[1:]
	} else if strings.HasSuffix(s, "-") {
		neg, s = !neg, s[:len(s)-1]
	}
	s = normaliseSeparators(s)
	if !plainDecimal(s) {
		return 0, false, fmt.Errorf("is not a number")
	}
	v, err = strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false, fmt.Errorf("is not a number")
	}
	if neg {
		v = -v
	}
	if err := store.CheckAmount(v, true); err != nil {
		return 0, false, fmt.Errorf("is %s", err.Error())
	}
	return v, true, nil
}

// normaliseSeparators turns a number's thousands and decimal separators
// into none and ".": with both, the last is the decimal one; a single
// comma before other than three digits is a decimal comma ("1234,5");
// several of one kind are thousands.
func normaliseSeparators(s string) string {
	dot, comma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	switch {
	case dot >= 0 && comma >= 0 && comma > dot:
		return strings.Replace(strings.ReplaceAll(s, ".", ""), ",", ".", 1)
	case dot >= 0 && comma >= 0:
		return strings.ReplaceAll(s, ",", "")
	case comma >= 0 && strings.Count(s, ",") == 1 && len(s)-comma-1 != 3:
		return strings.Replace(s, ",", ".", 1)
	case comma >= 0:
		return strings.ReplaceAll(s, ",", "")
	case strings.Count(s, ".") > 1:
		return strings.ReplaceAll(s, ".", "")
	}
	return s
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
