package simulator

import "testing"

// genBucketNames name the aging buckets in the order genAmounts gives them.
var genBucketNames = [5]string{"current", "1-30", "31-60", "61-90", "91+"}

// genTiedBuckets reports the first pair of aging buckets that are equal to
// the dollar, and at least least dollars, two months in a row of rows
// (newest first), as no real ledger has; ok is false when there is none.
func genTiedBuckets(rows []PaymentRow, least int64) (x, y int, month string, ok bool) {
	for x := 0; x < 5; x++ {
		for y := x + 1; y < 5; y++ {
			n := 0
			for k := range rows {
				a := genAmounts(&rows[k])
				if a[x] != a[y] || a[x] < least {
					n = 0
					continue
				}
				if n++; n >= 2 {
					return x, y, rows[k].MonthReported, true
				}
			}
		}
	}
	return 0, 0, "", false
}

// TestDataBucketsNeverTied checks the whole demo population (the fixtures
// and the demo's own seed as `make run` makes it): no business has two
// aging buckets equal two months in a row. Demo business 1001 once had its
// 61-90 and 91+ buckets equal to the cent every month. Toward a supplier
// category the late buckets can be a few dollars, where a tie is chance,
// so there the check starts at $1,000 (and two empty buckets are no slip
// anywhere: nothing 61 days late).
func TestDataBucketsNeverTied(t *testing.T) {
	sets := append(genTestDatasets(t), Generate(GenerateOptions{Seed: 1}))
	for _, d := range sets {
		e := &genErrs{t: t}
		for i := range d.Businesses {
			b := &d.Businesses[i]
			if x, y, m, ok := genTiedBuckets(b.PaymentsMonthly, 1); ok {
				e.Errorf("seed %d, business %d: %s and %s buckets equal in %s and the month before", d.Seed, b.ID, genBucketNames[x], genBucketNames[y], m)
			}
			byCategory := map[string][]PaymentRow{}
			for _, p := range b.PaymentsSIC {
				byCategory[p.CategoryCode] = append(byCategory[p.CategoryCode], p)
			}
			for code, rows := range byCategory {
				if x, y, m, ok := genTiedBuckets(rows, 1000); ok {
					e.Errorf("seed %d, business %d, SIC %s: %s and %s buckets equal in %s and the month before", d.Seed, b.ID, code, genBucketNames[x], genBucketNames[y], m)
				}
			}
		}
	}
}

// TestGenTiedBuckets shows the check catches what it is for: the slip as
// 1001 had it, and not a tie in one month only.
func TestGenTiedBuckets(t *testing.T) {
	row := func(m string, a [5]int64) PaymentRow {
		return PaymentRow{MonthReported: m, CurrentAmount: a[0], PastDue30Days: a[1], PastDue60Days: a[2], PastDue90Days: a[3], PastDueOver90Days: a[4]}
	}
	slip := []PaymentRow{row("2026-10", [5]int64{900, 60, 20, 49833, 49833}), row("2026-09", [5]int64{880, 61, 22, 50285, 50285})}
	if x, y, m, ok := genTiedBuckets(slip, 1); !ok || x != 3 || y != 4 || m != "2026-09" {
		t.Errorf("genTiedBuckets(1001's slip) = %d, %d, %q, %v; want 3, 4, 2026-09, true", x, y, m, ok)
	}
	once := []PaymentRow{row("2026-10", [5]int64{900, 60, 20, 183, 183}), row("2026-09", [5]int64{880, 61, 22, 164, 163})}
	if _, _, _, ok := genTiedBuckets(once, 1); ok {
		t.Error("genTiedBuckets: a tie in one month only counted")
	}
	empty := []PaymentRow{row("2026-10", [5]int64{900, 60, 20, 0, 0}), row("2026-09", [5]int64{880, 61, 22, 0, 0})}
	if _, _, _, ok := genTiedBuckets(empty, 1); ok {
		t.Error("genTiedBuckets: two empty buckets counted as a tie")
	}
}
