package handlers

import (
	"strconv"
	"strings"
	"time"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
)

// Limits of the report's controls.
const (
	// defaultWindowMonths is the score charts' default frame, the service's
	// own default for CreditScoreHistory.
	defaultWindowMonths = 24
	// maxWindowMonths bounds a chosen frame: ten years of monthly points.
	maxWindowMonths = 120
	// defaultYears and maxYears bound the statements' count control.
	defaultYears = 5
	maxYears     = 10
	minYear      = 1900
	maxYear      = 2100
)

// scoreWindow is the frame of the score charts. Zero times leave the
// service's default: the last 24 months.
type scoreWindow struct {
	from, to time.Time // first day of the first and last month
	// fromParam and toParam are the values shown back in the form.
	fromParam, toParam string
}

// parseWindow reads the from/to form (YYYY-MM each, both optional). A
// refused form answers its fault, and the window is then the default. A
// frame may not start or end after now's month, nor, from From alone, run
// over ten years to now; a zero now skips those checks (a copy's frame is
// read as it was saved).
func parseWindow(fromRaw, toRaw string, now time.Time) (scoreWindow, views.WindowFault) {
	fromRaw, toRaw = strings.TrimSpace(fromRaw), strings.TrimSpace(toRaw)
	var w scoreWindow
	var ok bool
	if fromRaw != "" {
		if w.from, ok = parseMonth(fromRaw); !ok {
			return scoreWindow{}, views.WindowBadFrom
		}
	}
	if toRaw != "" {
		if w.to, ok = parseMonth(toRaw); !ok {
			return scoreWindow{}, views.WindowBadTo
		}
	}
	if !w.from.IsZero() && !w.to.IsZero() {
		if w.from.After(w.to) {
			return scoreWindow{}, views.WindowReversed
		}
		if months(w.from, w.to) > maxWindowMonths {
			return scoreWindow{}, views.WindowTooLong
		}
	}
	if !now.IsZero() {
		this := thisMonth(now)
		if w.from.After(this) || w.to.After(this) {
			return scoreWindow{}, views.WindowFuture
		}
		if !w.from.IsZero() && w.to.IsZero() && months(w.from, this) > maxWindowMonths {
			return scoreWindow{}, views.WindowTooLong
		}
	}
	if w.from.IsZero() && !w.to.IsZero() {
		// The service counts 24 months back from EndDate; say so in the form.
		w.from = w.to.AddDate(0, -(defaultWindowMonths - 1), 0)
	}
	w.fromParam, w.toParam = monthParam(w.from), monthParam(w.to)
	return w, views.WindowOK
}

// parseMonth reads YYYY-MM, as month inputs send it.
func parseMonth(s string) (time.Time, bool) {
	t, ok := readMonth(s)
	return t, ok && !t.IsZero()
}

// months counts the months from a to b, both included.
func months(a, b time.Time) int {
	return (b.Year()-a.Year())*12 + int(b.Month()) - int(a.Month()) + 1
}

// endDate is the last day of t's month: the service's EndDate is inclusive.
func endDate(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.AddDate(0, 1, -1)
}

// reachesLatest reports whether the frame runs to the latest month, so
// that its last score is the business's score now.
func (w scoreWindow) reachesLatest() bool { return w.to.IsZero() }

// riskCount is how many months of RiskHistory the frame needs: the default
// frame's 24, or everything when the user chose a frame (RiskHistory only
// counts back from the latest month, so a past frame needs the rest too).
func (w scoreWindow) riskCount() int {
	if w.from.IsZero() && w.to.IsZero() {
		return defaultWindowMonths
	}
	return 0
}

// riskWithin keeps the RiskHistory months inside the frame.
func (w scoreWindow) riskWithin(rows []upstream.RiskHistoryRow) []upstream.RiskHistoryRow {
	if w.from.IsZero() && w.to.IsZero() {
		return rows
	}
	out := make([]upstream.RiskHistoryRow, 0, len(rows))
	for _, r := range rows {
		m := time.Date(r.Year, time.Month(r.Month), 1, 0, 0, 0, 0, time.UTC)
		if (!w.from.IsZero() && m.Before(w.from)) || (!w.to.IsZero() && m.After(w.to)) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// statementsForm is the financials tab's controls, read and checked.
type statementsForm struct {
	query upstream.StatementsQuery
	// count, year and sort are shown back in the form.
	count, year, sort string
}

// parseStatementsForm reads count, year and sort. An invalid value falls
// back to its default and adds to the faults returned.
func parseStatementsForm(countRaw, yearRaw, sortRaw string) (statementsForm, views.StatementsFaults) {
	f := statementsForm{query: upstream.StatementsQuery{Count: defaultYears, SortOrder: "D"}}
	var problems views.StatementsFaults
	if s := strings.TrimSpace(countRaw); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxYears {
			problems = append(problems, views.StatementsBadCount)
		} else {
			f.query.Count = n
		}
	}
	if s := strings.TrimSpace(yearRaw); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < minYear || n > maxYear {
			problems = append(problems, views.StatementsBadYear)
		} else {
			f.query.StandardYear = n
		}
	}
	// The order is the grid's: the service is always asked newest first,
	// as it sorts before it counts, and "oldest first" would otherwise be
	// the oldest years on file instead of the latest ones reversed.
	f.sort = "D"
	switch s := strings.ToUpper(strings.TrimSpace(sortRaw)); s {
	case "":
	case "A", "D":
		f.sort = s
	default:
		problems = append(problems, views.StatementsBadSort)
	}
	f.count = strconv.Itoa(f.query.Count)
	if f.query.StandardYear > 0 {
		f.year = strconv.Itoa(f.query.StandardYear)
	}
	return f, problems
}

// defaultPeerQuarter is the service's default quarter of PeerAnalysis.
const defaultPeerQuarter = 4

// peerForm is the Peers section's controls, read and checked.
type peerForm struct {
	query upstream.PeerQuery
	// year ("" for the latest with statements) and quarter are shown back
	// in the form.
	year, quarter string
}

// parsePeerForm reads pyear, quarter, and the primary and samerisk
// checkboxes. An invalid value falls back to the service's default (the
// latest year with statements, the fourth quarter, any SIC code, any risk
// level) and adds to the faults returned.
func parsePeerForm(yearRaw, quarterRaw, primaryRaw, sameRiskRaw string) (peerForm, views.PeerFaults) {
	var f peerForm
	var problems views.PeerFaults
	if s := strings.TrimSpace(yearRaw); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < minYear || n > maxYear {
			problems = append(problems, views.PeerBadYear)
		} else {
			f.query.Year = n
		}
	}
	if s := strings.TrimSpace(quarterRaw); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 4 {
			problems = append(problems, views.PeerBadQuarter)
		} else {
			f.query.Quarter = n
		}
	}
	var ok bool
	if f.query.SICPrimary, ok = checkbox(primaryRaw); !ok {
		problems = append(problems, views.PeerBadPrimary)
	}
	same, ok := checkbox(sameRiskRaw)
	if !ok {
		problems = append(problems, views.PeerBadRisk)
	}
	if same {
		f.query.RiskLevel = upstream.RiskLevelSame
	}
	if f.query.Year > 0 {
		f.year = strconv.Itoa(f.query.Year)
	}
	f.quarter = strconv.Itoa(defaultPeerQuarter)
	if f.query.Quarter > 0 {
		f.quarter = strconv.Itoa(f.query.Quarter)
	}
	return f, problems
}

// checkbox reads a checkbox's value: absent is off, and a browser sends
// "on" unless the form names another value; ok is false for anything else.
func checkbox(raw string) (on, ok bool) {
	switch strings.ToLower(strings.TrimSpace(raw)) {
	case "":
		return false, true
	case "on", "1", "y", "yes", "true":
		return true, true
	}
	return false, false
}

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
