package views

import "strings"

// The comparison page leads with what changed: the changed facts first, in
// the tab's order, each with the parts of its value that differ marked, and
// the unchanged facts folded away below (a payments copy lists every month
// and category, some 90 facts, of which a month later a handful differ).

// partSep joins the parts of one fact's value (an aging row's buckets, a
// peer ratio's value, median and rank).
const partSep = " · "

// ValuePart is one part of a fact's value; Changed marks a part that
// differs from the other side's part in the same place.
type ValuePart struct {
	Text    string
	Changed bool
	// Sep is true for every part but the first: the template puts the
	// separator before it.
	Sep bool
}

// markParts splits then and now into their parts and marks those that
// differ. Values of a different shape (another number of parts) are
// changed as a whole.
func markParts(then, now string) (tp, np []ValuePart) {
	ts, ns := strings.Split(then, partSep), strings.Split(now, partSep)
	same := len(ts) == len(ns)
	mark := func(parts, other []string) []ValuePart {
		out := make([]ValuePart, len(parts))
		for i, p := range parts {
			out[i] = ValuePart{Text: p, Changed: !same || p != other[i], Sep: i > 0}
		}
		return out
	}
	return mark(ts, ns), mark(ns, ts)
}

// CompareSummary counts a comparison's rows by their change word.
type CompareSummary struct {
	Changed, New, Gone, Unchanged int
}

// Any is true when anything differs.
func (s CompareSummary) Any() bool { return s.Changed+s.New+s.Gone > 0 }

// Text is the count in words, e.g. "3 changed · 1 new · 86 unchanged".
func (s CompareSummary) Text() string {
	var parts []string
	for _, c := range []struct {
		n    int
		word string
	}{{s.Changed, "changed"}, {s.New, "new"}, {s.Gone, "gone"}, {s.Unchanged, "unchanged"}} {
		if c.n > 0 {
			parts = append(parts, Int(int64(c.n))+" "+c.word)
		}
	}
	if len(parts) == 0 {
		return "nothing to compare"
	}
	return strings.Join(parts, partSep)
}

// SetRows sorts a comparison's rows into the changed ones, shown first,
// and the unchanged ones, folded; each keeps the tab's order.
func (p *SnapshotComparePage) SetRows(rows []ThenNowRow) {
	p.Changed, p.Unchanged = nil, nil
	p.Summary = CompareSummary{}
	for _, r := range rows {
		switch r.ChangeWord {
		case "new":
			p.Summary.New++
		case "gone":
			p.Summary.Gone++
		case "changed":
			p.Summary.Changed++
		default:
			p.Summary.Unchanged++
		}
		if r.Changed {
			p.Changed = append(p.Changed, r)
		} else {
			p.Unchanged = append(p.Unchanged, r)
		}
	}
}
