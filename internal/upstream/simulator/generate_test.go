package simulator

import (
	"bytes"
	"math"
	"reflect"
	"sync"
	"testing"
	"time"
)

// genTestAsOf is the as-of month the fixtures use, so failures reproduce.
var genTestAsOf = time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)

// genFixtures are datasets generated once per test binary: the main one and
// two more with other seeds and as-of months (other quarter and fiscal-year
// alignments), so the consistency rules are checked beyond one draw.
var (
	genFixturesOnce sync.Once
	genFixtures     []*Dataset
)

func genTestDatasets(t testing.TB) []*Dataset {
	t.Helper()
	genFixturesOnce.Do(func() {
		genFixtures = []*Dataset{
			Generate(GenerateOptions{Seed: 42, AsOf: genTestAsOf}),
			Generate(GenerateOptions{Seed: 7, AsOf: time.Date(2025, 1, 15, 0, 0, 0, 0, time.UTC)}),
			Generate(GenerateOptions{Seed: -3, AsOf: time.Date(2024, 12, 31, 23, 0, 0, 0, time.UTC)}),
		}
	})
	return genFixtures
}

// genTestDataset is the main fixture.
func genTestDataset(t testing.TB) *Dataset { return genTestDatasets(t)[0] }

// The main fixture as WriteJSON writes it, made once: encoding 50 MB is the
// slowest step of these tests under the race detector.
var (
	genFixtureJSONOnce sync.Once
	genFixtureJSON     []byte
)

func genTestJSON(t testing.TB) []byte {
	t.Helper()
	genFixtureJSONOnce.Do(func() { genFixtureJSON = genJSON(t, genTestDataset(t)) })
	return genFixtureJSON
}

// genJSON renders a dataset with WriteJSON.
func genJSON(t testing.TB, d *Dataset) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := d.WriteJSON(&buf); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	return buf.Bytes()
}

func TestGenerateSameSeedSameBytes(t *testing.T) {
	a := genTestJSON(t)
	b := genJSON(t, Generate(GenerateOptions{Seed: 42, AsOf: genTestAsOf.AddDate(0, 0, 20)}))
	if !bytes.Equal(a, b) {
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		t.Fatalf("same seed and month: outputs differ at byte %d: %q vs %q", i, a[i:min(i+80, len(a))], b[i:min(i+80, len(b))])
	}
}

func TestGenerateOtherSeedOtherData(t *testing.T) {
	a := genTestDataset(t)
	b := Generate(GenerateOptions{Seed: 43, AsOf: genTestAsOf})
	same := 0
	for i := range a.Businesses {
		if i >= len(b.Businesses) {
			break
		}
		if reflect.DeepEqual(a.Businesses[i].Scores, b.Businesses[i].Scores) {
			same++
		}
	}
	if same > len(a.Businesses)/20 {
		t.Errorf("seeds 42 and 43: %d of %d businesses have identical score histories", same, len(a.Businesses))
	}
	if a.Businesses[100].Name == b.Businesses[100].Name && a.Businesses[200].Name == b.Businesses[200].Name {
		t.Error("seeds 42 and 43 give the same names")
	}
}

func TestGenerateAsOf(t *testing.T) {
	d := genTestDataset(t)
	if d.AsOf != "2026-05" || d.Seed != 42 {
		t.Errorf("AsOf, Seed = %q, %d; want 2026-05, 42", d.AsOf, d.Seed)
	}
	for i := range d.Businesses {
		b := &d.Businesses[i]
		last := b.Scores[len(b.Scores)-1]
		if last.Year != 2026 || last.Month != 5 {
			t.Fatalf("business %d: latest score month %d-%02d, want 2026-05", b.ID, last.Year, last.Month)
		}
		if b.PaymentsMonthly[0].MonthReported != "2026-05" {
			t.Fatalf("business %d: latest payment month %s, want 2026-05", b.ID, b.PaymentsMonthly[0].MonthReported)
		}
	}
	// The zero AsOf is the month before the current one; the clock may
	// cross a month boundary during the call, so either side is fine.
	before := time.Now().UTC()
	got := GenerateBusiness(1, time.Time{}, 1500)
	after := time.Now().UTC()
	last := got.Scores[len(got.Scores)-1]
	ok := false
	for _, now := range []time.Time{before, after} {
		want := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -1, 0)
		ok = ok || (last.Year == want.Year() && last.Month == int(want.Month()))
	}
	if !ok {
		t.Errorf("zero AsOf: latest month %d-%02d, want the month before %s", last.Year, last.Month, before.Format(LayoutMonth))
	}
}

func TestGenerateBusinessIsStandalone(t *testing.T) {
	d := genTestDataset(t)
	for _, id := range []int32{1001, 1004, 1007, 1008, 1234, int32(genFirstID + GenerateCount - 1)} {
		want, ok := d.Business(id)
		if !ok {
			t.Fatalf("Business(%d) missing", id)
		}
		if got := GenerateBusiness(42, genTestAsOf, id); !reflect.DeepEqual(got, *want) {
			t.Errorf("GenerateBusiness(42, 2026-05, %d) differs from the dataset's business", id)
		}
	}
}

func TestGenerateBusinessAnyID(t *testing.T) {
	// The server may be asked for any int32; none may panic, and every
	// business must be whole.
	for _, id := range []int32{math.MinInt32, -1, 0, 1, 999999, 2_000_000, math.MaxInt32} {
		b := GenerateBusiness(1, genTestAsOf, id)
		if b.ID != id || b.Name == "" || len(b.Scores) < 24 || len(b.PaymentsMonthly) < 12 {
			t.Errorf("GenerateBusiness(%d): id %d, name %q, %d scores, %d payment months", id, b.ID, b.Name, len(b.Scores), len(b.PaymentsMonthly))
		}
	}
}

func TestGenerateIDs(t *testing.T) {
	d := genTestDataset(t)
	if n := len(d.Businesses); n < 500 {
		t.Fatalf("%d businesses, want at least 500", n)
	}
	for i := range d.Businesses {
		if want := int32(genFirstID + i); d.Businesses[i].ID != want {
			t.Fatalf("Businesses[%d].ID = %d, want %d (ordered from 1001)", i, d.Businesses[i].ID, want)
		}
	}
	if _, ok := d.Business(999999); ok {
		t.Error("business 999999 exists; it must never")
	}
	if b, ok := d.Business(1001); !ok || b.ID != 1001 {
		t.Errorf("Business(1001) = %v, %v", b, ok)
	}
	if _, ok := d.Business(1000); ok {
		t.Error("Business(1000) found")
	}
}

func BenchmarkGenerate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Generate(GenerateOptions{Seed: 42, AsOf: genTestAsOf})
	}
}
