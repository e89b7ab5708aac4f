package store

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"strconv"
	"strings"
)

// A 50,000-line ledger is written in one transaction in batches of
// batchRows rows per statement: about 200 upserts, 200 inserts and 200
// audit inserts instead of 150,000 statements. The rows go in the order of
// the index they land in (accounts by number, ledger lines by account id),
// so each statement touches a few neighbouring pages of the indexes keyed
// by them, not one page per row: SQLite copies every page a statement
// changes into its statement journal first, and scattered rows also make
// the 1 MiB page cache spill to the WAL and read back before the commit
// (measured: about 1.8 s of a 50,000-line import went to the statement
// journal before).

// batchRows is how many rows one statement writes. SQLite binds its
// parameters as anonymous "?" (see valuesList), so binding stays linear;
// 256 rows of 13 values are far below both engines' parameter limits
// (32,766 and 65,535).
const batchRows = 256

// valuesList writes n rows of k parameters: "(?, ?), (?, ?)" on SQLite,
// "($1, $2), ($3, $4)" on PostgreSQL. The SQLite driver looks a numbered
// parameter's name up in a list as long as the statement's, which grows
// with the square of the batch; an anonymous one it binds by position.
func valuesList(sqlite bool, n, k int) string {
	var b strings.Builder
	b.Grow(n * k * 6)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j := range k {
			if j > 0 {
				b.WriteString(", ")
			}
			if sqlite {
				b.WriteByte('?')
			} else {
				b.WriteByte('$')
				b.WriteString(strconv.Itoa(i*k + j + 1))
			}
		}
		b.WriteByte(')')
	}
	return b.String()
}

// bulk is one multi-row statement of a transaction: a full batch's is
// prepared once and reused (parsing 3,000 parameters costs SQLite more than
// running them); a shorter batch (the last, or a single audit entry) runs
// unprepared.
type bulk struct {
	tx     *sql.Tx
	sqlite bool
	// k is each row's number of values; build makes the statement around
	// its VALUES list.
	k     int
	build func(values string) string
	full  *sql.Stmt
}

func (s *Store) bulk(tx *sql.Tx, k int, build func(values string) string) *bulk {
	return &bulk{tx: tx, sqlite: s.engine == SQLite, k: k, build: build}
}

// exec writes len(args)/k rows.
func (b *bulk) exec(ctx context.Context, args []any) error {
	n := len(args) / b.k
	if n < batchRows {
		_, err := b.tx.ExecContext(ctx, b.build(valuesList(b.sqlite, n, b.k)), args...)
		return err
	}
	st, err := b.prepared(ctx)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(ctx, args...)
	return err
}

// query writes len(args)/k rows and returns what the statement returns.
func (b *bulk) query(ctx context.Context, args []any) (*sql.Rows, error) {
	n := len(args) / b.k
	if n < batchRows {
		return b.tx.QueryContext(ctx, b.build(valuesList(b.sqlite, n, b.k)), args...)
	}
	st, err := b.prepared(ctx)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

func (b *bulk) prepared(ctx context.Context) (*sql.Stmt, error) {
	if b.full == nil {
		st, err := b.tx.PrepareContext(ctx, b.build(valuesList(b.sqlite, batchRows, b.k)))
		if err != nil {
			return nil, err
		}
		b.full = st
	}
	return b.full, nil
}

func (b *bulk) close() {
	if b.full != nil {
		b.full.Close()
	}
}

// checkLines checks and tidies every line (checkLine) and refuses an
// account listed twice; the error is the first line's, in file order, that
// fails either. It returns the lines' indices in account order, the order
// insertLines writes them in.
func checkLines(lines []LedgerLine) ([]int32, error) {
	valid, lineErr := len(lines), error(nil)
	for i := range lines {
		if err := checkLine(&lines[i]); err != nil {
			valid, lineErr = i, err
			break
		}
	}
	// Sorting finds the repeats without a map of 50,000 names; the stable
	// sort keeps each account's lines in file order, so the second of a
	// run is that account's first repeat.
	order := make([]int32, valid)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(x, y int32) int { return strings.Compare(lines[x].Account, lines[y].Account) })
	dup := -1
	for j := 1; j < len(order); j++ {
		if lines[order[j]].Account == lines[order[j-1]].Account && (dup < 0 || int(order[j]) < dup) {
			dup = int(order[j])
		}
	}
	if dup >= 0 {
		return nil, invalid("account", "account %s is listed twice", lines[dup].Account)
	}
	return order, lineErr
}

// accountInsert names team_accounts' columns an import writes.
const accountInsert = "INSERT INTO team_accounts (id, service, account, name, business_id, customer_id, supplier_id, owner, as_of, created_at, created_by, updated_at, updated_by) VALUES "

// accountUpsert is the upsert of a batch's accounts; name and links
// change only for a ledger at least as new as the one that set them, a
// link resolved from a CustomerId or SupplierId stays while the
// identifiers do, and a file's owner only fills a record that has none:
// an owner is the team's decision (the worklist's), not the file's.
const accountUpsert = ` ON CONFLICT (service, account) DO UPDATE SET
	name = CASE WHEN team_accounts.as_of <= excluded.as_of THEN excluded.name ELSE team_accounts.name END,
	business_id = CASE WHEN team_accounts.as_of > excluded.as_of THEN team_accounts.business_id
		WHEN excluded.business_id <> 0 THEN excluded.business_id
		WHEN team_accounts.customer_id = excluded.customer_id AND team_accounts.supplier_id = excluded.supplier_id THEN team_accounts.business_id
		ELSE 0 END,
	customer_id = CASE WHEN team_accounts.as_of <= excluded.as_of THEN excluded.customer_id ELSE team_accounts.customer_id END,
	supplier_id = CASE WHEN team_accounts.as_of <= excluded.as_of THEN excluded.supplier_id ELSE team_accounts.supplier_id END,
	owner = CASE WHEN team_accounts.owner = '' THEN excluded.owner ELSE team_accounts.owner END,
	as_of = CASE WHEN team_accounts.as_of <= excluded.as_of THEN excluded.as_of ELSE team_accounts.as_of END,
	updated_at = excluded.updated_at, updated_by = excluded.updated_by
	RETURNING id, account, owner, business_id`

// lineInsert names ledger_lines' columns.
const lineInsert = "INSERT INTO ledger_lines (ledger_id, account_id, balance, current_due, days_1_30, days_31_60, days_61_90, days_over_90, credit_limit, terms_days) VALUES "

// insertLines upserts the lines' accounts in account order (byAccount,
// from checkLines), then writes their ledger lines in account id order,
// batchRows at a time. It returns, by line index, the accounts of the
// record (before) whose owner or link the upsert changed, as they are now.
func (s *Store) insertLines(ctx context.Context, tx *sql.Tx, a Analyst, ledger int64, asOf string, now int64, lines []LedgerLine, byAccount []int32,
	before map[string]recordWas) (map[int32]recordWas, error) {
	changed := map[int32]recordWas{}
	got := func(i int32, owner string, business int64) {
		if was, known := before[lines[i].Account]; known && (was.owner != owner || int64(was.business) != business) {
			changed[i] = recordWas{owner: owner, business: int32(business)}
		}
	}
	// A new account's id is as random as any, but the new ids are sorted
	// and handed out in account order, so they too land in order.
	fresh := make([]int64, len(byAccount))
	for i := range fresh {
		fresh[i] = newID()
	}
	slices.Sort(fresh)
	ids := make([]int64, len(lines))
	up := s.bulk(tx, 13, func(v string) string { return accountInsert + v + accountUpsert })
	defer up.close()
	args := make([]any, 0, batchRows*13)
	for start := 0; start < len(byAccount); start += batchRows {
		batch := byAccount[start:min(start+batchRows, len(byAccount))]
		args = args[:0]
		for j, i := range batch {
			l := &lines[i]
			args = append(args, fresh[start+j], a.Service, l.Account, l.Name, int64(l.BusinessID), l.CustomerID, l.SupplierID, l.Owner, asOf, now, a.User, now, a.User)
		}
		if err := readIDs(ctx, up, args, lines, batch, ids, got); err != nil {
			return nil, err
		}
	}
	byID := slices.Clone(byAccount)
	slices.SortFunc(byID, func(x, y int32) int { return cmp.Compare(ids[x], ids[y]) })
	in := s.bulk(tx, 10, func(v string) string { return lineInsert + v })
	defer in.close()
	args = make([]any, 0, batchRows*10)
	for start := 0; start < len(byID); start += batchRows {
		args = args[:0]
		for _, i := range byID[start:min(start+batchRows, len(byID))] {
			l := &lines[i]
			var limit, terms any
			if l.ERPLimit != nil {
				limit = *l.ERPLimit
			}
			if l.Terms != nil {
				terms = int64(*l.Terms)
			}
			args = append(args, ledger, ids[i], l.Balance, l.Current, l.Days1to30, l.Days31to60, l.Days61to90, l.DaysOver90, limit, terms)
		}
		if err := in.exec(ctx, args); err != nil {
			return nil, err
		}
	}
	return changed, nil
}

// readIDs runs a batch's upsert and puts each account's id, new or kept,
// at its line's index in ids, handing got its owner and link as they are
// now. The rows come back in no promised order; the batch is in account
// order, so each is found by its account.
func readIDs(ctx context.Context, up *bulk, args []any, lines []LedgerLine, batch []int32, ids []int64, got func(i int32, owner string, business int64)) error {
	rows, err := up.query(ctx, args)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, business int64
		var account, owner string
		if err := rows.Scan(&id, &account, &owner, &business); err != nil {
			return err
		}
		j, found := slices.BinarySearchFunc(batch, account, func(i int32, acc string) int { return strings.Compare(lines[i].Account, acc) })
		if found {
			ids[batch[j]] = id
			got(batch[j], owner, business)
		}
	}
	return rows.Err()
}
