package policy

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// benchHistory is months month-ends of n accounts shaped like a team's:
// Risk and Pay drifting by a point now and then, arrears that follow a
// falling score, a few accounts opened and closed along the way.
func benchHistory(months, n int) *History {
	r := rand.New(rand.NewPCG(45, 6))
	h := &History{Months: make([]int, months), Accounts: make([]string, n), Lines: make([][]Line, months)}
	for m := range months {
		h.Months[m] = 202301 + m/12*100 + m%12
	}
	risk, pay := make([]int8, n), make([]int8, n)
	bal := make([]float64, n)
	for a := range n {
		h.Accounts[a] = "C" + string(rune('A'+a%26)) + string(rune('0'+a%10))
		risk[a], pay[a] = int8(1+r.IntN(10)), int8(1+r.IntN(10))
		bal[a] = 5000 * math.Pow(400, r.Float64())
	}
	for m := range months {
		lines := make([]Line, 0, n)
		for a := range n {
			if (a%50 == 0 && m < months/3) || (a%70 == 1 && m > 2*months/3) {
				continue // opened late, or closed
			}
			if r.IntN(6) == 0 {
				risk[a] = min(max(risk[a]+int8(r.IntN(3))-1, 1), 10)
				pay[a] = min(max(pay[a]+int8(r.IntN(3))-1, 1), 10)
			}
			share := math.Max(0, 0.35-0.04*float64(risk[a])+0.05*r.NormFloat64())
			b := bal[a] * (0.8 + 0.4*r.Float64())
			over := b * share
			p := pay[a]
			if a%9 == 0 {
				p = Missing
			}
			lines = append(lines, Line{Account: int32(a), Balance: b, Current: b - over, Over90: over,
				Limit: bal[a] * 1.5, Z: float32(math.NaN()), Risk: risk[a], Pay: p, DBT: int16(15 - risk[a])})
		}
		h.Lines[m] = lines
	}
	return h
}

// BenchmarkValidate24x50k: issue 45's figure, the three models validated
// over 24 month-ends of 50,000 accounts (target: 3 s and 300 MB). It
// reports the seconds and the heap's peak growth over what the history
// itself holds.
func BenchmarkValidate24x50k(b *testing.B) {
	h := benchHistory(24, 50000)
	models := StandardModels()
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	b.ResetTimer()
	var peak uint64
	start, cpu0 := time.Now(), cpuSeconds()
	for range b.N {
		stop := peakHeap()
		rep, err := Validate(h, StandardDefinition, models)
		if err != nil {
			b.Fatal(err)
		}
		peak = max(peak, stop())
		if rep.Results[1].Figures.Defaults == 0 {
			b.Fatal("no default in the bench history")
		}
	}
	b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "s/validation")
	// The CPU time too: on a shared machine the wall clock waits for
	// others.
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/validation")
	b.ReportMetric(float64(peak-min(peak, base.HeapInuse))/(1<<20), "MB-peak-heap-growth")
}

// cpuSeconds is the process's user and system time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// peakHeap samples the heap in use every 10 milliseconds until stop, and
// returns the highest it saw.
func peakHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	})
	return func() uint64 { close(done); wg.Wait(); return peak.Load() }
}
