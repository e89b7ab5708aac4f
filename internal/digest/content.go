// Package digest builds, schedules and sends the analysts' e-mail digest:
// what changed in the workspace since the last one, from the workspace
// database only (the service's session keys are never kept server-side,
// so no job can ask the service anything).
package digest

import (
	"context"
	"slices"
	"strings"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/store"
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
	Rules(ctx context.Context, a store.Analyst) ([]store.Rule, error)
}

// Items are one section's entries, kept within MaxLines; More counts
// those left out.
type Items[T any] struct {
	List []T
	More int
}

// Review is an account whose review falls due: when, and why then.
type Review struct {
	Account, Name string
	Due           time.Time
	Why           string
}

// Watched is an account of the newest ledger that the analyst's rules on
// the team's accounts pick out: its figures (balance, limit) and the rules
// it matches.
type Watched struct {
	credit.Figures
	Rules []store.RuleSpec
}

// Customer is a business with an account in the team's record: its
// accounts (at most MaxCustomerAccounts) with their newest balance, limit
// in force and owner, and how many more it has.
type Customer struct {
	Accounts []store.Account
	More     int
}

// MaxCustomerAccounts bounds the accounts a digest line names for one
// business.
const MaxCustomerAccounts = 3

// Bridge is the change in expected loss between the two newest ledgers,
// each account at its Risk band as of its date. Its lines are the total,
// the four causes, then each largest mover: Lines of them fit in the
// digest, More did not.
type Bridge struct {
	From, To string
	Bridge   credit.Bridge
	// Names are the accounts' names by account.
	Names       map[string]string
	Lines, More int
}

// Content is one digest as data: what changed between Since and Now.
// views words it; the wiring renders it (digest imports neither).
type Content struct {
	Analyst    store.Analyst
	Since, Now time.Time
	Alerts     Items[store.Alert]
	// Customers are the alerted businesses that have an account in the
	// team's record, by business; the other alerts are on businesses the
	// team does not sell to.
	Customers map[int32]Customer
	// Record is the team's record by account, for the accounts the
	// requests and reviews name (their balance, limit and owner).
	Record map[string]store.Account
	// Waiting are the requests waiting for the analyst's decision (none
	// for a non-decider); Decided the analyst's own, decided since.
	Waiting, Decided Items[store.LimitRequest]
	// Ledgers is how many ledger dates the team has, at most 2: without
	// one there is nothing on accounts, without two no bridge.
	Ledgers          int
	Overdue, DueSoon Items[Review]
	NewlyOver        Items[credit.Figures]
	NewlyAtRisk      Items[credit.Drift]
	// Watched are the accounts the analyst's rules on the team's accounts
	// match in the newest ledger.
	Watched Items[Watched]
	Bridge  Bridge
}

// Lines counts the lines the digest holds.
func (c Content) Lines() int {
	return len(c.Alerts.List) + len(c.Waiting.List) + len(c.Decided.List) + len(c.Overdue.List) + len(c.DueSoon.List) +
		len(c.NewlyOver.List) + len(c.NewlyAtRisk.List) + len(c.Watched.List) + c.Bridge.Lines
}

// budget hands out the digest's MaxLines across sections in order.
type budget struct{ left int }

// take keeps as many of n lines as are left, and says how many.
func (b *budget) take(n int) int {
	k := min(n, max(b.left, 0))
	b.left -= k
	return k
}

// add puts v into s, or counts it in More when the digest is full.
func add[T any](b *budget, s *Items[T], v T) {
	if b.take(1) == 0 {
		s.More++
		return
	}
	s.List = append(s.List, v)
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
	for _, al := range alerts {
		add(b, &c.Alerts, al)
	}
	c.Alerts.More += total - len(alerts)
	// The record (every account, with the newest ledger's balance) tells
	// customers from the other businesses alerted.
	record, err := src.Accounts(ctx, a, "")
	if err != nil {
		return c, err
	}
	c.Customers, c.Record = customers(record, c.Alerts.List), map[string]store.Account{}
	byAccount := make(map[string]int, len(record))
	for i, acc := range record {
		byAccount[acc.Account] = i
	}
	named := func(account string) {
		if i, ok := byAccount[account]; ok {
			c.Record[account] = record[i]
		}
	}

	if authority > 0 {
		lists, err := src.Requests(ctx, a, authority)
		if err != nil {
			return c, err
		}
		for _, r := range lists.Waiting {
			add(b, &c.Waiting, r)
		}
		for _, r := range c.Waiting.List {
			named(r.Account)
		}
	}

	// The requester is told what became of their requests.
	decided, total, err := src.OutcomesSince(ctx, a, since, MaxLines)
	if err != nil {
		return c, err
	}
	for _, r := range decided {
		add(b, &c.Decided, r)
	}
	c.Decided.More += total - len(decided)

	dates, err := src.LedgerDates(ctx, a)
	if err != nil {
		return c, err
	}
	c.Ledgers = min(len(dates), 2)
	if len(dates) == 0 {
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
	for _, r := range append(c.Overdue.List, c.DueSoon.List...) {
		named(r.Account)
	}
	var prev []credit.Figures
	if len(dates) > 1 {
		if prev, err = figures(dates[1]); err != nil {
			return c, err
		}
	}
	newlyOver(cur, prev, b, &c)
	if err := watched(ctx, src, a, cur, b, &c); err != nil {
		return c, err
	}
	if len(dates) > 1 {
		if err := bridge(ctx, src, a, dates[1], dates[0], b, &c); err != nil {
			return c, err
		}
	}
	return c, nil
}

// customers picks from the record the accounts of the alerted businesses,
// at most MaxCustomerAccounts each (in the account's order), counting the
// rest.
func customers(record []store.Account, alerts []store.Alert) map[int32]Customer {
	alerted := map[int32]bool{}
	for _, al := range alerts {
		alerted[al.BusinessID] = true
	}
	out := map[int32]Customer{}
	for _, acc := range record {
		if acc.BusinessID == 0 || !alerted[acc.BusinessID] {
			continue
		}
		cu := out[acc.BusinessID]
		cu.Accounts = append(cu.Accounts, acc)
		out[acc.BusinessID] = cu
	}
	for id, cu := range out {
		slices.SortFunc(cu.Accounts, func(x, y store.Account) int { return strings.Compare(x.Account, y.Account) })
		if n := len(cu.Accounts); n > MaxCustomerAccounts {
			cu.Accounts, cu.More = cu.Accounts[:MaxCustomerAccounts], n-MaxCustomerAccounts
		}
		out[id] = cu
	}
	return out
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
		r := Review{Account: f.Account.Account, Name: f.Name, Due: next, Why: why}
		switch {
		case next.Before(today):
			add(b, &c.Overdue, r)
		case next.Before(week):
			add(b, &c.DueSoon, r)
		}
	}
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
	for _, f := range cur {
		if f.OverLimit() && !was[f.Account.Account] {
			add(b, &c.NewlyOver, f)
		}
	}
	before, _ := credit.NewDrift(prev)
	risky := map[string]bool{}
	for _, d := range before {
		risky[d.Account] = true
	}
	now, _ := credit.NewDrift(cur)
	for _, d := range now {
		if !risky[d.Account] {
			add(b, &c.NewlyAtRisk, d)
		}
	}
}

// watched adds the accounts of the newest ledger that the analyst's rules
// on the team's accounts match, one line each with every rule it matches;
// an account the ledger does not list owes nothing and is left out.
func watched(ctx context.Context, src Source, a store.Analyst, figs []credit.Figures, b *budget, c *Content) error {
	rules, err := src.Rules(ctx, a)
	if err != nil {
		return err
	}
	var mine []store.RuleSpec
	for _, r := range rules {
		if r.Scope == store.ScopeAccounts {
			mine = append(mine, r.RuleSpec)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	for _, f := range figs {
		if !f.InLedger() {
			continue
		}
		w := Watched{Figures: f}
		for _, r := range mine {
			if credit.AccountFires(r, f) {
				w.Rules = append(w.Rules, r)
			}
		}
		if len(w.Rules) > 0 {
			add(b, &c.Watched, w)
		}
	}
	return nil
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
	br := credit.NewBridge(old, cur)
	n := 2 + len(br.Movers)
	kept := b.take(n)
	c.Bridge = Bridge{From: from, To: to, Bridge: br, Names: names, Lines: kept, More: n - kept}
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
