package ledger

import (
	"bytes"
	"encoding/csv"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"creditdash/internal/amount"
	"creditdash/internal/upstream/simulator"
)

// updateSamples rewrites the shipped sample ledgers from the demo data:
// go test ./internal/ledger -run TestSampleLedgers -update-samples
var updateSamples = flag.Bool("update-samples", false, "rewrite samples/*.csv from the demo data")

// sampleLedgers builds the two demo ledgers: now and three months earlier,
// over the demo user's portfolio, as an ERP exports them.
func sampleLedgers() (cur, old []byte) {
	data := simulator.Generate(simulator.GenerateOptions{Seed: 1, AsOf: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)})
	byID := map[int32]simulator.Business{}
	for _, b := range data.Businesses {
		byID[b.ID] = b
	}
	var ids []int32
	for _, u := range data.Users {
		if u.Username != "demo" {
			continue
		}
		for _, f := range u.Folders {
			for _, id := range f.BusinessIDs {
				if !slices.Contains(ids, id) {
					ids = append(ids, id)
				}
			}
		}
	}
	slices.Sort(ids)
	r := rand.New(rand.NewPCG(26, 1))
	head := []string{"Customer No.", "Name", "Business Id", "Supplier Id", "Total Due", "Current", "1-30", "31-60", "61-90", "Over 90", "Credit Limit", "Terms"}
	var curRows, oldRows [][]string
	for i, id := range ids {
		if len(curRows) >= 100 {
			break
		}
		b := byID[id]
		bal := math.Round(5000 * math.Pow(400, r.Float64())) // $5k–$2M, log-uniform
		limit := math.Ceil(bal*(1.1+r.Float64())/5000) * 5000
		if r.IntN(100) < 8 {
			limit = math.Floor(bal*0.85/5000) * 5000 // over its limit
		}
		terms := []int{30, 30, 45, 60}[r.IntN(4)]
		account := "C" + strconv.Itoa(10000+i*7)
		business, supplier := strconv.Itoa(int(id)), ""
		if i%17 == 5 {
			business, supplier = "", "S-"+strconv.Itoa(int(id)) // linked by the supplier id only
		}
		row := func(balance float64) []string {
			split := aging(b, balance)
			out := []string{account, b.Name, business, supplier, money(balance)}
			for _, v := range split {
				out = append(out, money(v))
			}
			return append(out, money(limit), "Net "+strconv.Itoa(terms))
		}
		curRows = append(curRows, row(bal))
		if r.IntN(10) > 0 { // a few accounts are new this quarter
			oldRows = append(oldRows, row(math.Round(bal*(0.6+0.8*r.Float64()))))
		}
	}
	// Two closed accounts in the older ledger only.
	oldRows = append(oldRows, []string{"C09001", "Closed Account One Inc", strconv.Itoa(int(ids[len(ids)-1])), "", "12,500.00", "12,500.00", "0.00", "0.00", "0.00", "0.00", "50,000.00", "Net 30"},
		[]string{"C09002", "Closed Account Two Corp", strconv.Itoa(int(ids[len(ids)-2])), "", "8,000.00", "8,000.00", "0.00", "0.00", "0.00", "0.00", "25,000.00", "Net 30"})
	// The mistakes real exports carry: a total that does not match its
	// buckets, and a number with a stray letter.
	curRows[3][4] = money(parse(curRows[3][4]) + 1000)
	curRows[7][10] = "25,0O0.00"
	return csvOf(head, curRows), csvOf(head, oldRows)
}

// aging splits a balance by the business's latest payment profile.
func aging(b simulator.Business, balance float64) [5]float64 {
	pct := [5]float64{100, 0, 0, 0, 0}
	if len(b.PaymentsMonthly) > 0 {
		p := b.PaymentsMonthly[0]
		pct = [5]float64{p.CurrentAmountPercent + p.OtherAmountPercent, p.PastDue30DaysPercent, p.PastDue60DaysPercent, p.PastDue90DaysPercent, p.PastDueOver90DaysPercent}
	}
	var out [5]float64
	var sum float64
	for i := 1; i < 5; i++ {
		out[i] = math.Round(balance*pct[i]) / 100
		sum += out[i]
	}
	out[0] = math.Round((balance-sum)*100) / 100
	return out
}

func money(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	whole, frac := s[:len(s)-3], s[len(s)-3:]
	var b []byte
	for i := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 && whole[i-1] != '-' {
			b = append(b, ',')
		}
		b = append(b, whole[i])
	}
	return string(b) + frac
}

func parse(s string) float64 {
	v, _, _ := amount.InFile(s, amount.Point)
	return v
}

func csvOf(head []string, rows [][]string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.UseCRLF = true // as Windows ERPs write
	_ = w.Write(head)
	_ = w.WriteAll(rows)
	return b.Bytes()
}

// TestSampleLedgers: the shipped samples are the demo data's, and each
// reads with exactly the two mistakes it was given.
func TestSampleLedgers(t *testing.T) {
	cur, old := sampleLedgers()
	if *updateSamples {
		for name, data := range map[string][]byte{SampleCurrent: cur, SampleOlder: old} {
			if err := os.WriteFile(filepath.Join("samples", name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, want := range map[string][]byte{SampleCurrent: cur, SampleOlder: old} {
		got, err := Sample(name)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("sample %s differs from the demo data's (err %v); run with -update-samples", name, err)
		}
	}
	_, res := read(t, cur)
	if len(res.Bad) != 2 || len(res.Lines) < 60 {
		t.Errorf("current sample: %d lines, bad %+v; want 60+ lines and the two planted mistakes", len(res.Lines), res.Bad)
	}
	_, res = read(t, old)
	if len(res.Bad) != 0 {
		t.Errorf("older sample: bad %+v", res.Bad)
	}
}
