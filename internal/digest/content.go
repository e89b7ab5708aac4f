// Package digest builds, schedules and sends the analysts' e-mail digest:
// what changed in the workspace since the last one, from the workspace
// database only (the service's session keys are never kept server-side,
// so no job can ask the service anything).
package digest

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/views"
)

// MaxLines bounds a digest: past it each section says "and N more".
const MaxLines = 200

// Source is what a digest reads: the analyst's alerts and the team's
// accounts, ledgers, known scores, reviews and requests.
type Source interface {
	AlertsSince(ctx context.Context, a store.Analyst, since time.Time, limit int) ([]store.Alert, int, error)
	Requests(ctx context.Context, a store.Analyst, authority float64) (store.RequestLists, error)
	LedgerDates(ctx context.Context, a store.Analyst) ([]string, error)
	Accounts(ctx context.Context, a store.Analyst, asOf string) ([]store.Account, error)
	LedgerBalances(ctx context.Context, a store.Analyst, asOf string) ([]store.LedgerBalance, error)
	KnownScores(ctx context.Context, a store.Analyst) (map[int32]map[store.Score]store.KnownScore, error)
	RiskAsOf(ctx context.Context, a store.Analyst, month int) (map[int32]float64, error)
	OutcomesSince(ctx context.Context, a store.Analyst, since time.Time, limit int) ([]store.LimitRequest, int, error)
	LastReviews(ctx context.Context, a store.Analyst) (map[string]store.Review, error)
	StatementYears(ctx context.Context, a store.Analyst) (map[int32]int, error)
}

// Line is one line of a digest: text and, when it leads somewhere, the
// page's path (made absolute with the public URL when sent).
type Line struct {
	Text string
	Path string
}

// Section is one heading of a digest with its lines; More counts the
// lines left out to keep the digest within MaxLines.
type Section struct {
	Title string
	Lines []Line
	More  int
	// None is said when the section has nothing.
	None string
}

// Content is one digest: what changed between Since and Now.
type Content struct {
	Analyst  store.Analyst
	Since    time.Time
	Now      time.Time
	Sections []Section
}

// Lines counts the lines the digest holds.
func (c Content) Lines() int {
	n := 0
	for _, s := range c.Sections {
		n += len(s.Lines)
	}
	return n
}

// budget hands out the digest's MaxLines across sections in order.
type budget struct{ left int }

// add puts line into s, or counts it in More when the digest is full.
func (b *budget) add(s *Section, l Line) {
	if b.left <= 0 {
		s.More++
		return
	}
	b.left--
	s.Lines = append(s.Lines, l)
}

// Build gathers the digest of a since the given time: alerts raised since,
// requests waiting for their decision (authority 0: none), a's own
// requests another decided since (with the amount and note), reviews overdue
// and due within seven days, accounts over limit or whose limit exceeds
// the calculator's (at risk) in the newest ledger but not in the one
// before, and the change in expected loss between the two newest ledgers
// with its bridge.
func Build(ctx context.Context, src Source, a store.Analyst, authority float64, since, now time.Time) (Content, error) {
	c := Content{Analyst: a, Since: since, Now: now}
	b := &budget{left: MaxLines}

	alerts, total, err := src.AlertsSince(ctx, a, since, MaxLines)
	if err != nil {
		return c, err
	}
	sec := Section{Title: "Alerts raised", None: "No alert was raised."}
	for _, al := range alerts {
		b.add(&sec, Line{Text: fmt.Sprintf("%s (%d): %s — %s %d, %s", al.BusinessName, al.BusinessID, views.RuleText(al.Rule),
			al.Month, al.Year, strconv.FormatFloat(al.New, 'f', -1, 64)), Path: "/businesses/" + strconv.Itoa(int(al.BusinessID))})
	}
	sec.More += total - len(alerts)
	c.Sections = append(c.Sections, sec)

	sec = Section{Title: "Decisions waiting for you", None: "No limit request waits for your decision."}
	if authority > 0 {
		lists, err := src.Requests(ctx, a, authority)
		if err != nil {
			return c, err
		}
		for _, r := range lists.Waiting {
			b.add(&sec, Line{Text: fmt.Sprintf("Account %s: limit %s asked by %s on %s", r.Account, views.Amount(r.Amount),
				r.RequestedBy, views.Date(r.RequestedAt)), Path: "/decisions/" + strconv.FormatInt(r.ID, 10)})
		}
	}
	c.Sections = append(c.Sections, sec)

	// The requester is told what became of their requests.
	decided, total, err := src.OutcomesSince(ctx, a, since, MaxLines)
	if err != nil {
		return c, err
	}
	sec = Section{Title: "Your limit requests decided", None: "None of your limit requests was decided."}
	for _, o := range views.NewOutcomes(decided, total).List() {
		b.add(&sec, Line{Text: fmt.Sprintf("Account %s: %s by %s on %s — %s", o.Account, o.What, o.Who, o.When, o.Note), Path: o.URL})
	}
	sec.More += total - len(decided)
	c.Sections = append(c.Sections, sec)

	dates, err := src.LedgerDates(ctx, a)
	if err != nil {
		return c, err
	}
	if len(dates) == 0 {
		c.Sections = append(c.Sections, Section{Title: "Accounts", None: "The team has imported no ledger yet."})
		return c, nil
	}
	known, err := src.KnownScores(ctx, a)
	if err != nil {
		return c, err
	}
	figures := func(asOf string) ([]credit.Figures, error) {
		accts, err := src.Accounts(ctx, a, asOf)
		if err != nil {
			return nil, err
		}
		out := make([]credit.Figures, len(accts))
		for i, acc := range accts {
			out[i] = credit.NewFigures(acc, known[acc.BusinessID])
		}
		return out, nil
	}
	cur, err := figures(dates[0])
	if err != nil {
		return c, err
	}
	if err := reviews(ctx, src, a, cur, now, b, &c); err != nil {
		return c, err
	}
	var prev []credit.Figures
	if len(dates) > 1 {
		if prev, err = figures(dates[1]); err != nil {
			return c, err
		}
	}
	newlyOver(cur, prev, b, &c)
	if len(dates) > 1 {
		if err := bridge(ctx, src, a, dates[1], dates[0], b, &c); err != nil {
			return c, err
		}
	} else {
		c.Sections = append(c.Sections, Section{Title: "Change in expected loss", None: "The bridge compares two ledger dates: a second ledger is needed."})
	}
	return c, nil
}

// reviews adds the overdue reviews and those due within a week.
func reviews(ctx context.Context, src Source, a store.Analyst, figs []credit.Figures, now time.Time, b *budget, c *Content) error {
	last, err := src.LastReviews(ctx, a)
	if err != nil {
		return err
	}
	years, err := src.StatementYears(ctx, a)
	if err != nil {
		return err
	}
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	week := today.AddDate(0, 0, 7)
	overdue := Section{Title: "Reviews overdue", None: "No review is overdue."}
	due := Section{Title: "Reviews due this week", None: "No review is due this week."}
	for _, f := range figs {
		var lr *credit.LastReview
		if r, ok := last[f.Account.Account]; ok {
			lr = &credit.LastReview{At: r.At, Band: r.Band, Over90: r.Over90, StatementYear: r.StatementYear,
				Outcome: r.Outcome, By: r.By, Note: r.Note}
		}
		over90 := 0.0
		if f.Balance > 0 {
			over90 = f.DaysOver90 / f.Balance
		}
		next, why := credit.NextReview(lr, f.Band, over90, years[f.BusinessID], now)
		l := Line{Text: fmt.Sprintf("Account %s, %s: review %s (%s)", f.Account.Account, f.Name, views.Date(next), why),
			Path: "/accounts/" + url.PathEscape(f.Account.Account) + "/review"}
		switch {
		case next.Before(today):
			b.add(&overdue, l)
		case next.Before(week):
			b.add(&due, l)
		}
	}
	c.Sections = append(c.Sections, overdue, due)
	return nil
}

// newlyOver adds the accounts over limit, or at risk (limit above the
// calculator's implied limit), now and not in the ledger before.
func newlyOver(cur, prev []credit.Figures, b *budget, c *Content) {
	was := map[string]bool{}
	for _, f := range prev {
		if f.OverLimit() {
			was[f.Account.Account] = true
		}
	}
	over := Section{Title: "Accounts newly over limit", None: "No account went over its limit."}
	for _, f := range cur {
		if f.OverLimit() && !was[f.Account.Account] {
			b.add(&over, Line{Text: fmt.Sprintf("Account %s, %s: balance %s over limit %s", f.Account.Account, f.Name,
				views.Amount(f.Balance), views.Amount(*f.Account.Limit)), Path: "/accounts?over=1"})
		}
	}
	before, _ := credit.NewDrift(prev)
	risky := map[string]bool{}
	for _, d := range before {
		risky[d.Account] = true
	}
	now, _ := credit.NewDrift(cur)
	risk := Section{Title: "Accounts newly at risk", None: "No account's limit newly exceeds what the calculator implies."}
	for _, d := range now {
		if !risky[d.Account] {
			b.add(&risk, Line{Text: fmt.Sprintf("Account %s, %s: limit %s, implied %s (gap %s)", d.Account, d.Name,
				views.Amount(d.Limit), views.Amount(d.Implied), views.Amount(d.Gap)), Path: "/portfolio/exposure"})
		}
	}
	c.Sections = append(c.Sections, over, risk)
}

// bridge adds the change in expected loss between two ledger dates, each
// account at its Risk band as of its date, with its four causes and
// largest movers.
func bridge(ctx context.Context, src Source, a store.Analyst, from, to string, b *budget, c *Content) error {
	names := map[string]string{}
	lines := func(date string) ([]credit.BridgeLine, error) {
		accts, err := src.LedgerBalances(ctx, a, date)
		if err != nil {
			return nil, err
		}
		risk, err := src.RiskAsOf(ctx, a, monthOf(date))
		if err != nil {
			return nil, err
		}
		out := make([]credit.BridgeLine, len(accts))
		for i, acc := range accts {
			out[i] = credit.BridgeLine{Account: acc.Account, Name: acc.Name, BusinessID: acc.BusinessID, Balance: acc.Balance}
			if r, ok := risk[acc.BusinessID]; ok && acc.BusinessID != 0 {
				out[i].Band = credit.Band(r)
			}
			names[acc.Account] = acc.Name
		}
		return out, nil
	}
	old, err := lines(from)
	if err != nil {
		return err
	}
	cur, err := lines(to)
	if err != nil {
		return err
	}
	v := views.NewBridgeView(from, to, credit.NewBridge(old, cur), names)
	sec := Section{Title: "Change in expected loss"}
	path := "/portfolio/exposure?from=" + from + "&to=" + to
	b.add(&sec, Line{Text: fmt.Sprintf("Expected loss %s on %s, %s on %s: %s", v.Old, from, v.New, to, v.Change), Path: path})
	b.add(&sec, Line{Text: fmt.Sprintf("Bridge: risk migration %s, exposure %s, new and closed accounts %s, scores newly known or lost %s",
		v.Migration, v.Exposure, v.NewClosed, v.Coverage)})
	for _, m := range v.Movers {
		b.add(&sec, Line{Text: fmt.Sprintf("Account %s, %s: %s (%s)", m.Account, m.Name, m.Change, m.Cause)})
	}
	c.Sections = append(c.Sections, sec)
	return nil
}

// monthOf is a ledger date's month as the store keys Risk months
// (YYYYMM).
func monthOf(date string) int {
	t, err := time.Parse(store.DateLayout, date)
	if err != nil {
		return 0
	}
	return t.Year()*100 + int(t.Month())
}
