package store

import (
	"context"
	"strconv"
	"strings"
)

// Reads of /api/v1 (issue 46.1): the team's accounts and requests in pages
// that follow a cursor, so an integration walks 50,000 accounts a page at
// a time without the store reading them all for each page.

// MaxPage is the longest page the API reads.
const MaxPage = 100

// AccountFilter narrows a page of accounts; the zero value keeps every
// account.
type AccountFilter struct {
	// Owner keeps the accounts of this owner ("" any).
	Owner string
	// Linked keeps linked accounts when "true", not linked when "false".
	Linked string
	// Business keeps the accounts linked to this business (0 any).
	Business int32
	// OverLimit keeps accounts whose newest balance is above the limit in
	// force; PastDue those owing anything past due.
	OverLimit, PastDue bool
	// Query keeps accounts whose number or name holds it, in any case.
	Query string
}

// likeText escapes s for LIKE ... ESCAPE '\'.
func likeText(s string) string {
	return "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(s)) + "%"
}

// AccountsPage reads up to n (at most MaxPage) of the team's accounts
// whose number sorts after after, in that order, each with its line of
// the newest ledger; more says further accounts match.
func (s *Store) AccountsPage(ctx context.Context, a Analyst, f AccountFilter, after string, n int) (accts []Account, more bool, err error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if a, err = team(a); err != nil {
		return nil, false, err
	}
	n = min(max(n, 1), MaxPage)
	args := []any{a.Service, after}
	// own are conditions on the record alone, line those on the newest
	// ledger's line too.
	own, line := []string{"service = $1", "account > $2"}, []string(nil)
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if f.Owner != "" {
		own = append(own, "owner = "+arg(f.Owner))
	}
	switch f.Linked {
	case "true":
		own = append(own, "business_id > 0")
	case "false":
		own = append(own, "business_id = 0")
	}
	if f.Business > 0 {
		own = append(own, "business_id = "+arg(int64(f.Business)))
	}
	if f.Query != "" {
		q := arg(likeText(f.Query))
		own = append(own, "(LOWER(account) LIKE "+q+` ESCAPE '\' OR LOWER(name) LIKE `+q+` ESCAPE '\')`)
	}
	if f.OverLimit {
		line = append(line, "t.credit_limit IS NOT NULL AND l.balance > t.credit_limit")
	}
	if f.PastDue {
		line = append(line, "l.days_1_30 + l.days_31_60 + l.days_61_90 + l.days_over_90 > 0")
	}
	limit := " LIMIT " + strconv.Itoa(n+1)
	// The page's accounts are found first, walking the (service, account)
	// key, and only they are joined to their ledger lines: joined first,
	// PostgreSQL's planner, before it has statistics of a fresh import,
	// joined all 50,000 to sort them (half a second a page).
	rows := "(SELECT * FROM team_accounts WHERE " + strings.Join(own, " AND ") + " ORDER BY account" + limit + ") t"
	where := ""
	if line != nil {
		// A condition on the line can pass over any number of accounts:
		// the page is then cut after the join.
		rows = "(SELECT * FROM team_accounts WHERE " + strings.Join(own, " AND ") + ") t"
		where = " WHERE " + strings.Join(line, " AND ")
	}
	query := "SELECT " + strings.Replace(recordColumns, "FROM team_accounts t", "FROM "+rows, 1) + where + " ORDER BY t.account" + limit
	accts, err = s.queryAccounts(ctx, "accounts page", query, args...)
	if err != nil {
		return nil, false, err
	}
	if len(accts) > n {
		return accts[:n], true, nil
	}
	return accts, false, nil
}

// Account reads one of the team's accounts with its line of the newest
// ledger; ErrNotFound for none.
func (s *Store) Account(ctx context.Context, a Analyst, account string) (Account, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Account{}, err
	}
	accts, err := s.queryAccounts(ctx, "account", "SELECT "+recordColumns+" WHERE t.service = $1 AND t.account = $2", a.Service, account)
	if err != nil {
		return Account{}, err
	}
	if len(accts) == 0 {
		return Account{}, ErrNotFound
	}
	return accts[0], nil
}

// RequestFilter narrows a page of limit requests; the zero value keeps
// every one.
type RequestFilter struct {
	Account string
	// Status is StatusPending, StatusApproved, StatusDeclined or
	// StatusWithdrawn ("" any).
	Status string
}

// RequestCursor is where a page of requests ends: the last one's time
// (Unix microseconds) and id. The zero value starts at the newest.
type RequestCursor struct {
	At int64
	ID int64
}

// RequestsPage reads up to n (at most MaxPage) of the team's limit
// requests older than before, newest first, without their evidence;
// more says further ones match.
func (s *Store) RequestsPage(ctx context.Context, a Analyst, f RequestFilter, before RequestCursor, n int) (out []LimitRequest, more bool, err error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if a, err = team(a); err != nil {
		return nil, false, err
	}
	n = min(max(n, 1), MaxPage)
	args := []any{a.Service}
	where := []string{"service = $1"}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if before.At > 0 {
		at, id := arg(before.At), arg(before.ID)
		where = append(where, "(requested_at < "+at+" OR (requested_at = "+at+" AND id < "+id+"))")
	}
	if f.Account != "" {
		where = append(where, "account = "+arg(f.Account))
	}
	if f.Status != "" {
		where = append(where, "status = "+arg(f.Status))
	}
	rows, err := s.r.QueryContext(ctx, "SELECT "+requestColumns+" FROM limit_requests WHERE "+strings.Join(where, " AND ")+
		" ORDER BY requested_at DESC, id DESC LIMIT "+strconv.Itoa(n+1), args...)
	if err != nil {
		return nil, false, wrap("requests page", err)
	}
	if out, err = scanRequests(rows); err != nil {
		return nil, false, wrap("requests page", err)
	}
	if len(out) > n {
		return out[:n], true, nil
	}
	return out, false, nil
}
