package handlers

import (
	"strings"
	"time"
	"unicode/utf8"
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

// clipInput shortens what a user typed before it is quoted back to them
// in a message, and refuses to echo text that is not even UTF-8.
func clipInput(s string, n int) string {
	if !utf8.ValidString(s) {
		return "?"
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
