package amount

import (
	"errors"
	"strings"
	"testing"
)

// TestTyped: what a person types on an English page reads as written;
// "12,5", "1..2" and "(-5)" are refused with how to write them.
func TestTyped(t *testing.T) {
	for in, want := range map[string]float64{"25,000": 25000, "1234.56": 1234.56, "$1,234.56": 1234.56, "-5": -5, "(5)": -5,
		" 12.5 ": 12.5, "1,234,567": 1234567, ".5": 0.5, "0": 0, "USD 10": 10, "10 €": 10} {
		got, ok, err := Typed(in)
		if err != nil || !ok || got != want {
			t.Errorf("Typed(%q) = %v, %v, %v; want %v", in, got, ok, err, want)
		}
	}
	for in, hint := range map[string]string{"12,5": "write 12.5 (or 12,500 for thousands)", "1.234,56": "write 1234.56",
		"1..2": "not an amount", "(-5)": "not an amount", "--5": "not an amount", "5-": "not an amount", "1,23,4": "not an amount",
		"12a4": "not an amount", "NaN": "not an amount", "1e5": "not an amount", "25 000": "group thousands with commas", "-": "not an amount",
		"1.2.3": "not an amount", "12,": "not an amount"} {
		_, _, err := Typed(in)
		if err == nil || !strings.Contains(err.Error(), hint) {
			t.Errorf("Typed(%q) = %v, want a refusal saying %q", in, err, hint)
		}
	}
	if _, ok, err := Typed("  "); ok || err != nil {
		t.Errorf("an empty value is no amount and no error: %v %v", ok, err)
	}
}

// TestInFile: a file's amounts as exports write them, read by the file's
// convention; an ambiguous value in a file without evidence is refused
// as ambiguous.
func TestInFile(t *testing.T) {
	cases := []struct {
		in   string
		c    Convention
		want float64
	}{
		{"$18,400.00", Unknown, 18400}, {"(1,234.56)", Unknown, -1234.56}, {"1.234,56", Unknown, 1234.56}, {"1.234,56-", Comma, -1234.56},
		{"12-", Unknown, -12}, {"1 234,50 EUR", Unknown, 1234.5}, {"1'234.50", Unknown, 1234.5}, {"1234,5", Unknown, 1234.5},
		{"1,234", Point, 1234}, {"1,234", Comma, 1.234}, {"1.234", Comma, 1234}, {"-$1,000.00", Unknown, -1000}, {"($250.00)", Unknown, -250},
		{"0,00", Unknown, 0}, {"0.123", Unknown, 0.123}, {"1234", Unknown, 1234},
	}
	for _, c := range cases {
		got, ok, err := InFile(c.in, c.c)
		if err != nil || !ok || got != c.want {
			t.Errorf("InFile(%q, %v) = %v, %v, %v; want %v", c.in, c.c, got, ok, err, c.want)
		}
	}
	for _, in := range []string{"1,234", "1.234", "$ 12.500"} {
		if _, _, err := InFile(in, Unknown); !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "decimal separator") {
			t.Errorf("InFile(%q) = %v, want it ambiguous", in, err)
		}
	}
	for _, in := range []string{"1..2", "(-5)", "12a4", "1,2,3.4.5", "Inf", "1e5", "1.234,56"} {
		if _, _, err := InFile(in, Point); err == nil || errors.Is(err, ErrAmbiguous) {
			t.Errorf("InFile(%q, Point) = %v, want it refused", in, err)
		}
	}
	if _, ok, err := InFile("-", Unknown); ok || err != nil {
		t.Errorf("a lone minus is an empty cell")
	}
}

// TestEvidence: which values decide a file's convention.
func TestEvidence(t *testing.T) {
	for in, want := range map[string]Convention{"1,234.56": Point, "12.5": Point, "1,234,567": Point, "1.234,56": Comma,
		"12,5": Comma, "1.234.567": Comma, "1,234": Unknown, "1.234": Unknown, "1234": Unknown, "$18,400.00": Point,
		"4.416,00-": Comma, "0,500": Comma} {
		if got := Evidence(in); got != want {
			t.Errorf("Evidence(%q) = %v, want %v", in, got, want)
		}
	}
}
