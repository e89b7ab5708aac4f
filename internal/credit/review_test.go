package credit

import (
	"testing"
	"time"
)

func TestNextReview(t *testing.T) {
	today := time.Date(2026, 11, 27, 15, 4, 0, 0, time.UTC)
	last := func(daysAgo, band int, over90 float64) *LastReview {
		return &LastReview{At: today.AddDate(0, 0, -daysAgo), Band: band, Over90: over90}
	}
	for _, c := range []struct {
		name   string
		last   *LastReview
		band   int
		over90 float64
		year   int
		want   string
		reason string
	}{
		{"never reviewed", nil, 5, 0, 0, "2026-11-27", "never reviewed"},
		{"band 2 monthly", last(10, 2, 0), 2, 0, 0, "2026-12-17", "Risk band 2: every 30 days"},
		{"band 5 quarterly", last(10, 5, 0), 5, 0, 0, "2027-02-16", "Risk band 5: every 91 days"},
		{"band 8 yearly", last(10, 8, 0), 8, 0, 0, "2027-11-17", "Risk band 8: every 365 days"},
		{"no score", last(100, 0, 0), 0, 0, 0, "2026-11-18", "no Risk score: every 91 days"},
		{"band drop", last(10, 8, 0), 3, 0, 0, "2026-11-27", "Risk band dropped from 8 to 3 since the last review"},
		{"band rise keeps the schedule", last(10, 3, 0), 8, 0, 0, "2027-11-17", "Risk band 8: every 365 days"},
		{"91+ passes 10 %", last(10, 8, 0.05), 8, 0.12, 0, "2026-11-27", "the 91+ days share passed 10 % (12.0 %) since the last review"},
		{"new statement year", &LastReview{At: today.AddDate(0, 0, -10), Band: 8, StatementYear: 2024}, 8, 0, 2025, "2026-11-27", "new statement year: 2025 known since the last review"},
		{"same statement year keeps the schedule", &LastReview{At: today.AddDate(0, 0, -10), Band: 8, StatementYear: 2025}, 8, 0, 2025, "2027-11-17", "Risk band 8: every 365 days"},
		{"a year first known since the review", last(10, 8, 0), 8, 0, 2025, "2026-11-27", "new statement year: 2025 known since the last review"},
		{"91+ already over when reviewed", last(10, 8, 0.2), 8, 0.3, 0, "2027-11-17", "Risk band 8: every 365 days"},
	} {
		got, why := NextReview(c.last, c.band, c.over90, c.year, today)
		if got.Format("2006-01-02") != c.want || why != c.reason {
			t.Errorf("%s: %s (%s), want %s (%s)", c.name, got.Format("2006-01-02"), why, c.want, c.reason)
		}
	}
}
