package metrics

import (
	"testing"
	"time"
)

func TestHourWindowForgetsAfterAnHour(t *testing.T) {
	now := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	w := newHourWindow(func() time.Time { return now })
	w.add()
	w.add()
	now = now.Add(30 * time.Minute)
	w.add()
	if n := w.total(); n != 3 {
		t.Errorf("after 30 min: %d, want 3", n)
	}
	now = now.Add(31 * time.Minute)
	if n := w.total(); n != 1 {
		t.Errorf("after 61 min: %d, want 1 (the first two gone)", n)
	}
	now = now.Add(2 * time.Hour)
	w.add()
	if n := w.total(); n != 1 {
		t.Errorf("hours later: %d, want 1", n)
	}
}
