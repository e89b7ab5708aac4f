package store

import (
	"context"
	"slices"
	"strconv"
	"strings"
)

// /accounts reads one page of the record at a time (issue 43.6): the rows
// of the page in SQL's order, and the counts and sums the page shows from
// one aggregate over the record grouped by business, so the first page
// after a team write reads a hundred accounts' columns, not 50,000.

// RecordQuery is a page of the record as /accounts asks for it; the zero
// value is the first page of every account in account order.
type RecordQuery struct {
	// Sort is "" or "account", "balance", "limit" or "utilization"
	// (RecordSorts); unknown values (no limit) sort last either way, and
	// the account number breaks ties. Desc turns the order round, except
	// the account number's, which is the order of no sort.
	Sort string
	Desc bool
	// OverLimit, NotLinked and ERPDiffers keep only such accounts; Owner
	// those of the owner, compared ignoring ASCII case ("" any).
	OverLimit, NotLinked, ERPDiffers bool
	Owner                            string
	// Offset and Limit are the page's rows: Limit at most MaxPage.
	Offset, Limit int
}

// RecordSorts are the orders RecordPage reads in SQL.
var RecordSorts = []string{"", "account", "balance", "limit", "utilization"}

// RecordGroup counts and sums the record's accounts linked to one business
// (0: the accounts not linked).
type RecordGroup struct {
	BusinessID int32
	// Accounts counts every account; Unlinked those not linked that wait
	// on a CustomerId or SupplierId; ERPDiffers those whose newest line
	// gives an ERP limit other than the limit in force; NotInLedger those
	// the newest ledger does not list.
	Accounts, Unlinked, ERPDiffers, NotInLedger int
	// Kept counts the accounts the query keeps; Balance sums their newest
	// balances and Exposure the positive ones.
	Kept              int
	Balance, Exposure float64
	// Default is the filing in force on the business, nil for none.
	Default *Default
}

// RecordSummary is what a page of the record shows beside its rows: the
// groups of every account, and every owner named.
type RecordSummary struct {
	Groups []RecordGroup
	Owners []string
}

// recordKept is q's filter in SQL over t and l, and its arguments after
// the service ($1).
func recordKept(q RecordQuery) (string, []any) {
	var args []any
	keep := []string{"1 = 1"}
	if q.OverLimit {
		keep = append(keep, "t.credit_limit IS NOT NULL AND COALESCE(l.balance, 0) > t.credit_limit")
	}
	if q.NotLinked {
		keep = append(keep, "t.business_id = 0")
	}
	if q.ERPDiffers {
		keep = append(keep, erpDiffers)
	}
	if q.Owner != "" {
		args = append(args, q.Owner)
		keep = append(keep, "LOWER(t.owner) = LOWER(CAST($2 AS TEXT))")
	}
	return strings.Join(keep, " AND "), args
}

// RecordSummary counts and sums the team's record by business, the
// accounts q keeps apart, and names every owner: what /accounts shows
// beside a page of q's rows.
func (s *Store) RecordSummary(ctx context.Context, a Analyst, q RecordQuery) (RecordSummary, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return RecordSummary{}, err
	}
	kept, args := recordKept(q)
	var out RecordSummary
	if out.Groups, err = s.recordGroups(ctx, a.Service, kept, append([]any{a.Service}, args...)); err != nil {
		return out, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT DISTINCT owner FROM team_accounts WHERE service = $1 AND owner <> ''", a.Service)
	if err != nil {
		return out, wrap("record owners", err)
	}
	defer rows.Close()
	for rows.Next() {
		var o string
		if err := rows.Scan(&o); err != nil {
			return out, wrap("record owners", err)
		}
		out.Owners = append(out.Owners, o)
	}
	slices.Sort(out.Owners)
	return out, wrap("record owners", rows.Err())
}

// RecordRows are the rows of q's page of the team's record, each with its
// line of the newest ledger and the filing in force on its business.
func (s *Store) RecordRows(ctx context.Context, a Analyst, q RecordQuery) ([]Account, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(RecordSorts, q.Sort) {
		return nil, invalid("sort", "%q is not a sort of the record", q.Sort)
	}
	kept, args := recordKept(q)
	page := " LIMIT " + strconv.Itoa(min(max(q.Limit, 1), MaxPage)) + " OFFSET " + strconv.Itoa(max(q.Offset, 0))
	cols, outer := recordColumns, page
	if (q.Sort == "" || q.Sort == "account") && !q.OverLimit && !q.ERPDiffers {
		// Ordered and kept by the record alone: the page's accounts are
		// found first, and only they are joined to their lines (SQLite
		// would join every account passed over by the offset).
		own := strings.NewReplacer("t.", "").Replace(kept)
		cols = strings.Replace(recordColumns, "FROM team_accounts t", "FROM (SELECT * FROM team_accounts WHERE service = $1 AND "+own+
			" ORDER BY "+strings.TrimPrefix(s.recordOrder(q), "t.")+page+") t", 1)
		outer = ""
	}
	query := "SELECT " + cols + " WHERE t.service = $1 AND " + kept + " ORDER BY " + s.recordOrder(q) + outer
	out, err := s.queryAccounts(ctx, "record rows", query, append([]any{a.Service}, args...)...)
	if err != nil {
		return nil, err
	}
	return out, s.attachDefaults(ctx, a.Service, out)
}

// erpDiffers is Account.ERPDiffers in SQL.
const erpDiffers = "l.credit_limit IS NOT NULL AND (t.credit_limit IS NULL OR ABS(t.credit_limit - l.credit_limit) >= 0.005)"

// recordOrder is q's ORDER BY, as views.SortFigures orders figures. The
// account number is compared byte by byte, as Go compares strings, on
// PostgreSQL too whatever the database's collation.
func (s *Store) recordOrder(q RecordQuery) string {
	account := "t.account"
	if s.engine == Postgres {
		account += ` COLLATE "C"`
	}
	dir := ""
	if q.Desc {
		dir = " DESC"
	}
	switch q.Sort {
	case "balance":
		return "COALESCE(l.balance, 0)" + dir + ", " + account
	case "limit":
		return "(CASE WHEN t.credit_limit IS NULL THEN 1 ELSE 0 END), t.credit_limit" + dir + ", " + account
	case "utilization":
		return "(CASE WHEN t.credit_limit > 0 THEN 0 ELSE 1 END), (CASE WHEN t.credit_limit > 0 THEN COALESCE(l.balance, 0) / t.credit_limit END)" +
			dir + ", " + account
	}
	return account
}

// linesIndex has SQLite read ledger lines from their covering index
// (00008), which its planner, without statistics, passes over for the
// primary key and a visit to each line's row.
func (s *Store) linesIndex() string {
	if s.engine == SQLite {
		return "INDEXED BY ledger_lines_read "
	}
	return ""
}

// recordGroups counts and sums the record by business: everything, and
// what kept (SQL over t and l) keeps.
func (s *Store) recordGroups(ctx context.Context, service, kept string, args []any) ([]RecordGroup, error) {
	k := "CASE WHEN " + kept + " THEN "
	query := `SELECT t.business_id, COUNT(*),
		SUM(CASE WHEN t.business_id = 0 AND (t.customer_id <> '' OR t.supplier_id <> '') THEN 1 ELSE 0 END),
		SUM(CASE WHEN ` + erpDiffers + ` THEN 1 ELSE 0 END),
		SUM(CASE WHEN l.account_id IS NULL THEN 1 ELSE 0 END),
		SUM(` + k + `1 ELSE 0 END), SUM(` + k + `COALESCE(l.balance, 0) ELSE 0 END),
		SUM(` + k + `(CASE WHEN l.balance > 0 THEN l.balance ELSE 0 END) ELSE 0 END)
		FROM team_accounts t
		LEFT JOIN ledger_lines l ` + s.linesIndex() + `ON l.account_id = t.id AND l.ledger_id = (SELECT id FROM ledgers WHERE service = $1 ORDER BY as_of DESC LIMIT 1)
		WHERE t.service = $1 GROUP BY t.business_id`
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap("record groups", err)
	}
	defer rows.Close()
	var out []RecordGroup
	for rows.Next() {
		var g RecordGroup
		var business int64
		if err := rows.Scan(&business, &g.Accounts, &g.Unlinked, &g.ERPDiffers, &g.NotInLedger, &g.Kept, &g.Balance, &g.Exposure); err != nil {
			return nil, wrap("record groups", err)
		}
		g.BusinessID = int32(business)
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("record groups", err)
	}
	open, err := s.readDefaults(ctx, service, "c.default_id IS NULL")
	if err != nil || len(open) == 0 {
		return out, err
	}
	by := make(map[int32]*Default, len(open))
	for i := range open {
		if _, ok := by[open[i].BusinessID]; !ok {
			by[open[i].BusinessID] = &open[i]
		}
	}
	for i := range out {
		if out[i].BusinessID != 0 {
			out[i].Default = by[out[i].BusinessID]
		}
	}
	return out, nil
}
