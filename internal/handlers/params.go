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

// monthParam writes a month as its parameter, "" for none.
func monthParam(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2006-01")
}
