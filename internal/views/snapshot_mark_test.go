package views

import (
	"testing"
	"time"

	"creditdash/internal/store"
)

// A unit symbol takes no plural: 2 kB, not 2 kBs.
func TestSnapshotMarkSize(t *testing.T) {
	for size, want := range map[int]string{1: "1 kB", 1024: "1 kB", 1025: "2 kB", 50 * 1024: "50 kB"} {
		m := NewSnapshotMark(store.SnapshotInfo{ID: 1, Tab: "overview", Size: size, Fetched: time.Now(), Saved: time.Now()})
		if m.Size != want {
			t.Errorf("size %d: %q, want %q", size, m.Size, want)
		}
	}
}
