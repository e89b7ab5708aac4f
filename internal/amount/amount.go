// Package amount is the one reader of amounts written by people: typed
// into a form (Typed), or in a ledger file whose decimal separator is
// decided from the file's own evidence (InFile). A value whose separators
// could mean two things, or that is malformed, is refused with a message
// that shows how to write it; it is never read as something else.
package amount

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Convention is which separator marks decimals.
type Convention int

// The conventions: Unknown until a file's evidence (or the analyst)
// decides; Point writes 1,234.56; Comma writes 1.234,56.
const (
	Unknown Convention = iota
	Point
	Comma
)

// String names the convention by an example, as the preview offers it.
func (c Convention) String() string {
	switch c {
	case Point:
		return "1,234.56"
	case Comma:
		return "1.234,56"
	}
	return "not decided"
}

// ErrAmbiguous is wrapped by the error for a value that reads as two
// different amounts ("1,234" is 1234 or 1.234), in a file whose other
// values do not say which.
var ErrAmbiguous = errors.New("amount: ambiguous separator")

// Error is a refused amount; its text reads after the field's name.
type Error struct {
	msg       string
	ambiguous bool
}

func (e *Error) Error() string { return e.msg }

// Is matches ErrAmbiguous for an ambiguous value.
func (e *Error) Is(target error) bool { return target == ErrAmbiguous && e.ambiguous }

// malformed is the refusal of a value that is no amount at all.
func malformed(raw string, c Convention) error {
	ex := "1234.56 or 1,234.56"
	if c == Comma {
		ex = "1234,56 or 1.234,56"
	}
	return &Error{msg: fmt.Sprintf("“%s” is not an amount: write digits with at most one decimal separator, such as %s", clip(raw), ex)}
}

// Typed reads an amount a person typed on a page in English, where a
// point marks decimals and a comma groups thousands: "25,000", "1234.56",
// "$1,234.56", "-5" and "(5)". ok is false for an empty value. "12,5"
// (a decimal comma, or thousands missing their digits) and "1.234,56"
// are refused with how to write them, as are "1..2" and "(-5)".
func Typed(s string) (v float64, ok bool, err error) {
	raw := strings.TrimSpace(s)
	if raw == "" {
		return 0, false, nil
	}
	neg, body, ok := sign(trimCurrency(raw), false)
	if !ok || body == "" {
		return 0, false, malformed(raw, Point)
	}
	if strings.ContainsAny(body, " '\u00a0\u202f") {
		return 0, false, &Error{msg: fmt.Sprintf("“%s” is not an amount: group thousands with commas or not at all, such as 25,000 or 25000", clip(raw))}
	}
	if dot, comma := strings.LastIndexByte(body, '.'), strings.LastIndexByte(body, ','); comma > dot && strings.Count(body, ",") == 1 &&
		len(body)-comma-1 != 3 && allDigits(body[comma+1:]) && allDigits(strings.ReplaceAll(body[:comma], ".", "")) {
		// "12,5" or "1.234,56": a decimal comma, which this page does not use.
		whole, frac := strings.ReplaceAll(body[:comma], ".", ""), body[comma+1:]
		alt := ""
		if dot < 0 && len(frac) < 3 && len(whole) <= 3 {
			alt = " (or " + whole + "," + frac + strings.Repeat("0", 3-len(frac)) + " for thousands)"
		}
		return 0, false, &Error{msg: fmt.Sprintf("“%s” is ambiguous here, where a point marks decimals: write %s.%s%s", clip(raw), whole, frac, alt)}
	}
	v, err = read(body, Point)
	if err != nil {
		return 0, false, malformed(raw, Point)
	}
	if neg {
		v = -v
	}
	return v, true, nil
}

// InFile reads an amount of a ledger file by the file's convention c: an
// Unknown convention reads each value by its own separators and refuses
// one that is ambiguous (wrapping ErrAmbiguous). Currency signs and codes,
// spaces and apostrophes grouping thousands, parentheses and a leading or
// trailing minus are allowed. ok is false for an empty cell or a lone "-".
func InFile(s string, c Convention) (v float64, ok bool, err error) {
	raw := strings.TrimSpace(s)
	if raw == "" || raw == "-" {
		return 0, false, nil
	}
	// Most of a file's amounts are digits and separators alone: nothing
	// to take off them, and no sign (sign, trimCurrency and dropGrouping
	// would each leave them as they are).
	neg, body := false, raw
	if !plainBody(raw) {
		neg, body, ok = sign(trimCurrency(raw), true)
		if !ok || body == "" {
			return 0, false, malformed(raw, c)
		}
		body = dropGrouping(body)
	}
	if c == Unknown {
		switch c = Evidence(body); {
		case c != Unknown:
		case ambiguous(body):
			return 0, false, &Error{ambiguous: true, msg: fmt.Sprintf("“%s” could be read two ways (%s or %s): choose the file's decimal separator", clip(raw),
				strings.NewReplacer(",", "", ".", "").Replace(body), strings.NewReplacer(",", ".").Replace(body))}
		default:
			c = Point
		}
	}
	v, err = read(body, c)
	if err != nil {
		return 0, false, malformed(raw, c)
	}
	if neg {
		v = -v
	}
	return v, true, nil
}

// Evidence is the convention a file's value shows on its own: "1,234.56",
// "12.5" and "1,234,567" show Point; "1.234,56", "12,5" and "1.234.567"
// show Comma; "1,234", "1.234" and "1234" show nothing.
func Evidence(s string) Convention {
	body := s
	if !plainBody(body) {
		_, b, ok := sign(trimCurrency(strings.TrimSpace(s)), true)
		if !ok {
			return Unknown
		}
		body = dropGrouping(b)
	}
	dot, comma := strings.LastIndexByte(body, '.'), strings.LastIndexByte(body, ',')
	switch {
	case dot >= 0 && comma >= 0 && dot > comma:
		return Point
	case dot >= 0 && comma >= 0:
		return Comma
	case strings.Count(body, ",") > 1:
		return Point
	case strings.Count(body, ".") > 1:
		return Comma
	case dot >= 0 && !ambiguous(body):
		return Point
	case comma >= 0 && !ambiguous(body):
		return Comma
	}
	return Unknown
}

// ambiguous reports a body with one separator followed by exactly three
// digits after one to three digits not starting with 0: "1,234" or
// "1.234".
func ambiguous(body string) bool {
	i := strings.IndexAny(body, ".,")
	if i < 1 || i > 3 || body[0] == '0' || strings.Count(body, ".")+strings.Count(body, ",") != 1 {
		return false
	}
	return len(body)-i-1 == 3 && allDigits(body[:i]) && allDigits(body[i+1:])
}

// read parses digits grouped by the convention's thousands separator
// (groups of three) with at most one decimal separator followed by
// digits. The digits are gathered in a buffer on the stack: a file's
// amounts are read by the hundred thousand.
func read(body string, c Convention) (float64, error) {
	dec, group := byte('.'), byte(',')
	if c == Comma {
		dec, group = ',', '.'
	}
	whole, frac, hasFrac := body, "", false
	if i := strings.IndexByte(body, dec); i >= 0 {
		whole, frac, hasFrac = body[:i], body[i+1:], true
	}
	if hasFrac && (frac == "" || !allDigits(frac)) {
		return 0, errors.New("amount: bad decimals")
	}
	if whole == "" {
		if !hasFrac {
			return 0, errors.New("amount: no digits")
		}
		whole = "0"
	}
	var buf [32]byte
	num := buf[:0]
	if strings.IndexByte(whole, group) >= 0 {
		first := true
		for g := range strings.SplitSeq(whole, string(group)) {
			if first && (len(g) < 1 || len(g) > 3 || !allDigits(g)) || !first && (len(g) != 3 || !allDigits(g)) {
				return 0, errors.New("amount: bad grouping")
			}
			num, first = append(num, g...), false
		}
	} else if !allDigits(whole) {
		return 0, errors.New("amount: not digits")
	} else {
		num = append(num, whole...)
	}
	if len(num) > 16 {
		return 0, errors.New("amount: too long")
	}
	if hasFrac {
		num = append(append(num, '.'), frac...)
	}
	return strconv.ParseFloat(string(num), 64)
}

// sign takes the sign off: a leading "-", "(…)", or, in a file, a
// trailing "-" (SAP's). Two signs, as "(-5)" or "--5", are refused.
func sign(s string, trailing bool) (neg bool, body string, ok bool) {
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		neg, s = true, strings.TrimSpace(s[1:len(s)-1])
		s = trimCurrency(s)
	}
	switch {
	case strings.HasPrefix(s, "-"):
		if neg {
			return false, "", false
		}
		neg, s = true, strings.TrimSpace(s[1:])
	case strings.HasPrefix(s, "+") && !neg:
		s = strings.TrimSpace(s[1:])
	case trailing && strings.HasSuffix(s, "-"):
		if neg {
			return false, "", false
		}
		neg, s = true, strings.TrimSpace(s[:len(s)-1])
	}
	s = trimCurrency(s)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '-' || c == '+' || c == '(' || c == ')' {
			return false, "", false
		}
	}
	return neg, s, true
}

// currencies are the signs and codes an amount may carry before or after
// its digits.
var currencies = []string{"US$", "A$", "C$", "NZ$", "$", "€", "£", "¥", "₹", "USD", "EUR", "GBP", "CHF", "CAD", "AUD", "NZD",
	"JPY", "SEK", "NOK", "DKK", "INR", "ZAR", "SGD", "HKD", "MXN", "PLN"}

// trimCurrency takes one currency sign or code off either end.
func trimCurrency(s string) string {
	s = strings.TrimSpace(s)
	for _, c := range currencies {
		if strings.HasPrefix(s, c) {
			s = strings.TrimSpace(s[len(c):])
			break
		}
	}
	for _, c := range currencies {
		if strings.HasSuffix(s, c) {
			s = strings.TrimSpace(s[:len(s)-len(c)])
			break
		}
	}
	return s
}

// dropGrouping removes the spaces and apostrophes a file may group
// thousands with ("1 234,56", "1'234.56").
func dropGrouping(s string) string {
	if !strings.ContainsAny(s, " '\u00a0\u202f\u2019") {
		return s
	}
	return strings.NewReplacer(" ", "", "'", "", "\u00a0", "", "\u202f", "", "\u2019", "").Replace(s)
}

// plainBody reports digits and separators only, the common case that
// needs no cleaning.
func plainBody(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c == '.' || c == ',') {
			return false
		}
	}
	return s != ""
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// clip shortens a value quoted in a message.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return s
}
