package handlers

import (
	"strings"
	"time"
)

// What the pages read from their query strings, in one place.

// readMonth reads a month parameter, "2026-10" as month inputs send it; ""
// is a valid absence (the zero time). Years outside minYear–maxYear are
// refused: no credit history reaches them.
func readMonth(raw string) (time.Time, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return time.Time{}, true
	}
	t, err := time.Parse("2006-01", raw)
	if err != nil || len(raw) != 7 || t.Year() < minYear || t.Year() > maxYear {
		return time.Time{}, false
	}
	return t, true
}

// thisMonth is the first day of now's month (UTC), as readMonth reads
// months: the latest a frame of monthly scores may reach.
func thisMonth(now time.Time) time.Time {
	now = now.UTC()
	return time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// monthParam writes a month as its parameter, "" for none.
func monthParam(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2006-01")
}
