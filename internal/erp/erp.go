// Package erp decides what goes back to the ERP (issue 46.4): each
// account's limit in force and whether it is to be held, compared with
// what the last export sent, as the lines of a review-first worksheet; and
// the shape each ERP's customer import takes (systems.go). It reads
// figures and reviews and writes nothing: the store records each export.
package erp

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/store"
)

// The reasons an account is held, in the order lines name them.
const (
	// HoldDefault: a bankruptcy or insolvency filing in force puts the
	// account in default (store.Default).
	HoldDefault = "default"
	// HoldOverLimit: the balance is above the limit in force by more than
	// the team's threshold.
	HoldOverLimit = "over-limit"
	// HoldReviewOverdue: the account's next review date has passed (the
	// schedule of /reviews; a never-reviewed account is due, not overdue).
	HoldReviewOverdue = "review-overdue"
	// HoldReview: the latest review concluded to hold the account.
	HoldReview = "review-hold"
)

// State is what the ERP should hold of one account now.
type State struct {
	Account, Name string
	// Limit is the limit in force, nil for none.
	Limit *float64
	// Reasons are why it is held, in a fixed order; none: not held.
	Reasons []string
}

// Held reports whether the account should be on hold.
func (s State) Held() bool { return len(s.Reasons) > 0 }

// Line is one account on the worksheet: what changed since the last
// export, and the state to send.
type Line struct {
	State
	// LimitChanged says the limit in force differs from the one sent (or
	// none was sent); Before is the limit sent, nil for none.
	LimitChanged bool
	Before       *float64
	// Action is store.ERPHold, store.ERPRelease or "" (hold unchanged).
	Action string
}

// StateOf works out what the ERP should hold of an account as of today:
// its limit in force, and its holds. last is its latest review (nil for
// none), year the newest statement year known of its business (0 none),
// threshold the team's over-limit threshold in percent.
func StateOf(f *credit.Figures, last *credit.LastReview, year int, threshold float64, today time.Time) State {
	s := State{Account: f.Account.Account, Name: f.Name, Limit: f.Account.Limit}
	if f.InDefault() {
		s.Reasons = append(s.Reasons, HoldDefault)
	}
	if l := f.Account.Limit; l != nil && f.Balance > *l*(1+threshold/100) {
		s.Reasons = append(s.Reasons, HoldOverLimit)
	}
	over90 := 0.0
	if f.Balance > 0 {
		over90 = f.DaysOver90 / f.Balance
	}
	next, _ := credit.NextReview(last, f.Band, over90, year, today)
	u := today.UTC()
	if next.Before(time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)) {
		s.Reasons = append(s.Reasons, HoldReviewOverdue)
	}
	if last.Holds() {
		s.Reasons = append(s.Reasons, HoldReview)
	}
	return s
}

// Worksheet is what changed since the last export, by account: a line
// when the limit in force differs from the one sent (or none was sent),
// when the account should be held and the ERP was not told, or when it was
// held and should be no more. A limit gone since it was sent is no line:
// only a decision sets a limit, and an empty limit would read as none in
// the ERP.
func Worksheet(now []State, sent map[string]store.ERPSent) []Line {
	var out []Line
	for _, s := range now {
		was, ok := sent[s.Account]
		l := Line{State: s, Before: was.Limit}
		l.LimitChanged = s.Limit != nil && (!ok || was.Limit == nil || math.Abs(*was.Limit-*s.Limit) >= 0.005)
		switch {
		case s.Held() && !was.Held:
			l.Action = store.ERPHold
		case !s.Held() && was.Held:
			l.Action = store.ERPRelease
		}
		if l.LimitChanged || l.Action != "" {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(a, b Line) int { return strings.Compare(a.Account, b.Account) })
	return out
}

// ReasonsText is a line's reasons as a cell: "default; over-limit".
func (l Line) ReasonsText() string { return strings.Join(l.Reasons, "; ") }

// Record is the line as the store records it.
func (l Line) Record() store.ERPLine {
	return store.ERPLine{Account: l.Account, Name: l.Name, Limit: l.Limit, LimitChanged: l.LimitChanged, Previous: l.Before,
		Held: l.Held(), Action: l.Action, Reasons: l.ReasonsText()}
}

// FromRecord is a recorded line as the worksheet had it, to write its file
// again.
func FromRecord(r store.ERPLine) Line {
	l := Line{State: State{Account: r.Account, Name: r.Name, Limit: r.Limit}, LimitChanged: r.LimitChanged, Before: r.Previous, Action: r.Action}
	if r.Reasons != "" {
		l.Reasons = strings.Split(r.Reasons, "; ")
	}
	return l
}

// LimitText is a limit as the files write it: plain digits with at most
// two decimals, "" for none.
func LimitText(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(math.Round(*v*100)/100, 'f', -1, 64)
}
