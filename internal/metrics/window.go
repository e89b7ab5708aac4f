package metrics

import (
	"sync"
	"time"
)

// hourWindow counts events of the last hour, minute by minute, for the
// operator page (a Prometheus counter needs a query to say as much).
type hourWindow struct {
	mu      sync.Mutex
	now     func() time.Time
	minutes [60]int64 // the Unix minute each slot counts
	counts  [60]uint64
}

func newHourWindow(now func() time.Time) *hourWindow { return &hourWindow{now: now} }

// add counts one event now.
func (w *hourWindow) add() {
	m := w.now().Unix() / 60
	w.mu.Lock()
	defer w.mu.Unlock()
	i := m % 60
	if w.minutes[i] != m {
		w.minutes[i], w.counts[i] = m, 0
	}
	w.counts[i]++
}

// total is the events of the last 60 minutes, this one included.
func (w *hourWindow) total() uint64 {
	m := w.now().Unix() / 60
	w.mu.Lock()
	defer w.mu.Unlock()
	var n uint64
	for i := range w.minutes {
		if m-w.minutes[i] < 60 {
			n += w.counts[i]
		}
	}
	return n
}
