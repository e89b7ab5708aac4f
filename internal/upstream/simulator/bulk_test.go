package simulator

import (
	"reflect"
	"strings"
	"testing"
)

func TestBulkListingDeterministic(t *testing.T) {
	for _, i := range []int{0, 1, 999, 123456, 999_999} {
		a, b := BulkListing(42, genTestAsOf, i), BulkListing(42, genTestAsOf, i)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("BulkListing(42, 2026-05, %d) differs between calls", i)
		}
		if c := BulkListing(43, genTestAsOf, i); reflect.DeepEqual(a.Scores, c.Scores) {
			t.Errorf("BulkListing(%d): seeds 42 and 43 give the same scores", i)
		}
		if a.ID != BulkBusinessID(i) {
			t.Errorf("BulkListing(%d).ID = %d, want %d", i, a.ID, BulkBusinessID(i))
		}
	}
}

func TestBulkListingNamesSortInIndexOrder(t *testing.T) {
	prev := ""
	for _, i := range []int{0, 1, 2, 9, 10, 11, 99, 100, 101, 999, 1000, 9999, 10000, 99_999, 100_000, 999_999, 1_000_000, BulkMaxCount - 1} {
		name := BulkListing(1, genTestAsOf, i).Name
		if !strings.HasPrefix(name, "Portfolio Company ") || len(strings.Fields(name)) < 5 {
			t.Errorf("bulk %d: name %q, want \"Portfolio Company <n> <company name>\"", i, name)
		}
		if name <= prev {
			t.Errorf("bulk %d: name %q sorts before or with %q", i, name, prev)
		}
		prev = name
	}
	for i := range 2000 {
		a, b := BulkListing(1, genTestAsOf, i).Name, BulkListing(1, genTestAsOf, i+1).Name
		if a >= b {
			t.Fatalf("bulk %d and %d: %q >= %q", i, i+1, a, b)
		}
	}
}

// TestBulkListingMatchesGenerateBusiness checks that the cheap part is the
// same business the server builds in full for a detail page.
func TestBulkListingMatchesGenerateBusiness(t *testing.T) {
	for _, i := range []int{0, 7, 4242, 777_777} {
		cheap := BulkListing(5, genTestAsOf, i)
		full := GenerateBusiness(5, genTestAsOf, BulkBusinessID(i))
		if cheap.ID != full.ID || cheap.Name != full.Name || cheap.City != full.City || cheap.State != full.State ||
			cheap.Country != full.Country || cheap.Public != full.Public || cheap.Story != full.Story ||
			!reflect.DeepEqual(cheap.NAICS, full.NAICS) || !reflect.DeepEqual(cheap.Scores, full.Scores) {
			t.Errorf("bulk %d: BulkListing and GenerateBusiness disagree on the listing fields", i)
		}
		if len(full.PaymentsMonthly) == 0 || len(full.News) == 0 && len(full.Officers) == 0 {
			t.Errorf("bulk %d: GenerateBusiness left the full business empty", i)
		}
		if d := *full.PaymentsMonthly[0].DBTIndex; d != *cheap.Scores[len(cheap.Scores)-1].DBT {
			t.Errorf("bulk %d: latest DBT %d in payments, %d in scores", i, d, *cheap.Scores[len(cheap.Scores)-1].DBT)
		}
	}
}

func TestBulkIDsDoNotCollide(t *testing.T) {
	last := int32(genFirstID + GenerateCount - 1)
	if BulkBusinessID(0) <= last || BulkBusinessID(0) <= 999999 {
		t.Errorf("BulkBusinessID(0) = %d, want above the regular ids (up to %d) and 999999", BulkBusinessID(0), last)
	}
	if BulkBusinessID(BulkMaxCount-1) <= BulkBusinessID(0) {
		t.Errorf("BulkBusinessID overflows before BulkMaxCount")
	}
	if genBulkIndex(BulkBusinessID(12)) != 12 || genBulkIndex(1001) != -1 {
		t.Error("genBulkIndex does not invert BulkBusinessID")
	}
}

func TestBulkListingAllocations(t *testing.T) {
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		BulkListing(1, genTestAsOf, i)
		i++
	})
	if allocs > 5 {
		t.Errorf("BulkListing: %.1f allocations per call, want at most 5", allocs)
	}
}

func BenchmarkBulkListing(b *testing.B) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		BulkListing(42, genTestAsOf, i)
		i++
	}
}
