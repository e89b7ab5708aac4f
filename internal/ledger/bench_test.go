package ledger

import (
	"bytes"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// peakHeap samples the live heap while fn runs and returns its peak
// above the heap before, in MB.
func peakHeap(fn func()) float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(done)
	p := peak.Load()
	if p < base {
		return 0
	}
	return float64(p-base) / (1 << 20)
}

// importOnce reads data as the preview does (Read, Validate) and again as
// the import does (Read, Parse).
func importOnce(b *testing.B, data []byte, asOf time.Time) Result {
	tab, err := Read(b.Context(), data)
	if err != nil {
		b.Fatal(err)
	}
	m := tab.Mapping()
	Validate(tab, m, Options{AsOf: asOf})
	tab, err = Read(b.Context(), data)
	if err != nil {
		b.Fatal(err)
	}
	return Parse(tab, m, Options{AsOf: asOf})
}

// BenchmarkImport50kCSV (issue 43.6): a 50,000-account aging CSV read for
// its preview and for its import; target <= 5 s and <= 100 MB.
func BenchmarkImport50kCSV(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("Aged receivables\nCustomer No.,Name,Business Id,Total Due,Current,1-30,31-60,61-90,Over 90,Credit Limit,Terms\n")
	for i := range MaxAccounts {
		fmt.Fprintf(&buf, "C%06d,\"Customer %d, Inc\",%d,\"1,%03d.50\",\"1,%03d.50\",0.00,0.00,0.00,0.00,\"25,000.00\",Net 30\n", i, i, 1001+i%520, i%1000, i%1000)
	}
	data := buf.Bytes()
	asOf := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	b.ResetTimer()
	for b.Loop() {
		var res Result
		mb := peakHeap(func() { res = importOnce(b, data, asOf) })
		if res.Valid != MaxAccounts {
			b.Fatalf("%d valid, bad %+v", res.Valid, res.Bad[:min(len(res.Bad), 3)])
		}
		b.ReportMetric(mb, "peak-MB")
	}
}

// BenchmarkOpenItems200kXLSX (issue 43.6): 200,000 open items of 20,000
// customers in a workbook, read for its preview and its import; target
// <= 15 s and <= 200 MB.
func BenchmarkOpenItems200kXLSX(b *testing.B) {
	rows := [][]xc{textRow("Company"), textRow("Customer - Open Items"), blankRow(),
		textRow("Posting Date", "Document Type", "Document No.", "Customer No.", "Customer Name", "Due Date", "Original Amount", "Remaining Amount")}
	base := serial("2026-06-01")
	for i := range 200000 {
		c := i % 20000
		rows = append(rows, []xc{nm(base + float64(i%150)), tx("Invoice"), tx(fmt.Sprintf("INV%07d", i)), tx(fmt.Sprintf("C%05d", c)),
			tx(fmt.Sprintf("Customer %d Ltd", c)), nm(base + float64(i%150+30)), nm(float64(1000 + i%997)), nm(float64(500 + i%991))})
	}
	data := writeWorkbook(b, rows, nil)
	rows = nil
	asOf := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	b.Logf("workbook of %.1f MB", float64(len(data))/(1<<20))
	b.ResetTimer()
	for b.Loop() {
		var res Result
		mb := peakHeap(func() { res = importOnce(b, data, asOf) })
		if res.Valid != 20000 || res.Items != 200000 {
			b.Fatalf("%d accounts of %d items, bad %+v", res.Valid, res.Items, res.Bad[:min(len(res.Bad), 3)])
		}
		b.ReportMetric(mb, "peak-MB")
	}
}
