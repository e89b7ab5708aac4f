package upstream

import (
	"testing"
	"time"
)

// FuzzPaymentMonth: the hand-read month agrees with time.Parse on every
// input.
func FuzzPaymentMonth(f *testing.F) {
	for _, s := range []string{"2026-10", "2026-1", "2026-00", "2026-13", "0000-01", "9999-12", "2026/10", "+026-10", "2026-1a", "", "2026-100", "２026-10", " 2026-10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := time.Parse(monthLayout, s)
		got, ok := PaymentSummaryRow{MonthReported: s}.Month()
		if ok != (err == nil) || !got.Equal(want) || got.Location() != want.Location() {
			t.Errorf("%q: %v, %v; time.Parse %v, %v", s, got, ok, want, err)
		}
	})
}
