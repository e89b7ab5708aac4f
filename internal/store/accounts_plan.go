package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// What an import would do (issue 43), counted and named, for its preview
// and, worked out again inside its transaction, for its audit entry: the
// accounts it would create, those the date's ledger holds and the file
// does not, the balances it changes, and the ERP limits that differ from
// the limits in force.

// maxNamed is how many accounts a plan names of each kind; it counts all.
const maxNamed = 20

// Named is a count of accounts and the first maxNamed of them, in file
// order (the ledger's account order for accounts the file lacks).
type Named struct {
	N     int
	Names []string
}

func (n *Named) add(account string) {
	n.N++
	if len(n.Names) < maxNamed {
		n.Names = append(n.Names, account)
	}
}

// text is "3 new (A-1, A-2, A-3)".
func (n Named) text(what string) string {
	s := fmt.Sprintf("%d %s", n.N, what)
	if n.N > 0 {
		s += " (" + strings.Join(n.Names, ", ")
		if n.N > len(n.Names) {
			s += fmt.Sprintf(", and %d more", n.N-len(n.Names))
		}
		s += ")"
	}
	return s
}

// LimitDiff is an account whose ERP limit in the file differs from its
// limit in force.
type LimitDiff struct {
	Account string
	ERP     float64
	// InForce is the limit in force, nil for none.
	InForce *float64
}

// ImportPlan is what importing lines as the ledger of AsOf would do.
type ImportPlan struct {
	AsOf   string
	Update bool
	// Lines is how many accounts the file gives.
	Lines int
	// Replaces says the date has a ledger, which would be kept as a
	// version; ReplacesLines, ReplacesBy and ReplacesAt describe it.
	Replaces      bool
	ReplacesLines int
	ReplacesBy    string
	ReplacesAt    time.Time
	// Base is the date of the ledger balances are compared with: the
	// date's own, else the newest before it; "" when there is none.
	Base string
	// New are accounts the record does not hold yet.
	New Named
	// Missing are accounts of the date's ledger the file lacks: owing
	// nothing as of the date (full ledger) or kept as they were (Update).
	Missing Named
	// Changed are accounts of the base ledger whose balance the file
	// changes.
	Changed Named
	// ERPDiffers counts the lines whose ERP limit differs from the limit
	// in force; Diffs are the first maxNamed.
	ERPDiffers int
	Diffs      []LimitDiff
	// Total is the sum of the file's balances imported.
	Total float64
	// record is the record's accounts before the import, base their
	// lines of the base ledger, and missing every account of the date's
	// ledger the file lacks: what the import's audit entries compare
	// with (importChanges).
	record  map[string]recordWas
	base    map[string]lineWas
	missing []string
}

// recordWas is an account of the record as it was before an import.
type recordWas struct {
	limit    *float64
	owner    string
	business int32
}

// lineWas is an account's line of the base ledger.
type lineWas struct {
	balance float64
	erp     *float64
	seen    bool
}

// Text is the plan in one line, as the audit trail keeps it.
func (p ImportPlan) Text() string {
	mode := "full ledger"
	missing := "read as owing nothing"
	if p.Update {
		mode, missing = "update", "left as they were"
	}
	parts := []string{
		fmt.Sprintf("%s, %s: %d accounts in the file", p.AsOf, mode, p.Lines),
		p.New.text("new"),
		p.Missing.text("in the date's ledger but not in the file, " + missing),
		p.Changed.text("balances changed"),
	}
	erp := fmt.Sprintf("%d ERP limits differ from the limit in force", p.ERPDiffers)
	if p.ERPDiffers > 0 {
		names := make([]string, len(p.Diffs))
		for i, d := range p.Diffs {
			names[i] = d.Account
		}
		erp += " (" + strings.Join(names, ", ")
		if p.ERPDiffers > len(names) {
			erp += fmt.Sprintf(", and %d more", p.ERPDiffers-len(names))
		}
		erp += ")"
	}
	parts = append(parts, erp, "total imported "+amountText(&p.Total))
	return strings.Join(parts, "; ")
}

// readAmount is an amount read from a nullable column, nil for NULL.
func readAmount(v sql.NullFloat64) *float64 {
	if !v.Valid {
		return nil
	}
	f := v.Float64
	return &f
}

// reader is a transaction or the store's readers.
type reader interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// PlanImport says what importing lines as the ledger of asOf would do,
// writing nothing. The lines are checked as ImportLedger checks them.
func (s *Store) PlanImport(ctx context.Context, a Analyst, asOf time.Time, lines []LedgerLine, update bool) (ImportPlan, error) {
	a, err := team(a)
	if err != nil {
		return ImportPlan{}, err
	}
	if _, err := checkLines(lines); err != nil {
		return ImportPlan{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout*time.Duration(1+len(lines)/10000))
	defer cancel()
	p, err := planImport(ctx, s.r, a.Service, asOf.Format(DateLayout), lines, update)
	return p, wrap("plan import", err)
}

// planImport works the plan out of the record and the ledgers as q reads
// them.
func planImport(ctx context.Context, q reader, service, asOf string, lines []LedgerLine, update bool) (ImportPlan, error) {
	p := ImportPlan{AsOf: asOf, Update: update, Lines: len(lines)}
	// Sized for a file of the record's own accounts, as a team's next
	// ledger mostly is: the maps are not grown a step at a time.
	record := make(map[string]recordWas, len(lines))
	rows, err := q.QueryContext(ctx, "SELECT account, credit_limit, owner, business_id FROM team_accounts WHERE service = $1", service)
	if err != nil {
		return p, err
	}
	// What Scan fills is declared once, outside the loops: Scan's
	// pointers would otherwise put a fresh set on the heap for every row.
	var acc string
	var l sql.NullFloat64
	var owner string
	var business int64
	for rows.Next() {
		if err := rows.Scan(&acc, &l, &owner, &business); err != nil {
			rows.Close()
			return p, err
		}
		record[acc] = recordWas{limit: readAmount(l), owner: owner, business: int32(business)}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return p, err
	}
	var base int64
	var baseAt int64
	var baseBy string
	err = q.QueryRowContext(ctx, "SELECT id, as_of, imported_at, imported_by FROM ledgers WHERE service = $1 AND as_of <= $2 ORDER BY as_of DESC LIMIT 1",
		service, asOf).Scan(&base, &p.Base, &baseAt, &baseBy)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return p, err
	}
	var baseLines map[string]lineWas
	var baseOrder []string
	if base != 0 {
		baseLines = make(map[string]lineWas, len(record))
		baseOrder = make([]string, 0, len(record))
		rows, err := q.QueryContext(ctx, `SELECT t.account, l.balance, l.credit_limit FROM ledger_lines l JOIN team_accounts t ON t.id = l.account_id
			WHERE l.ledger_id = $1 ORDER BY t.account`, base)
		if err != nil {
			return p, err
		}
		var balance float64
		for rows.Next() {
			if err := rows.Scan(&acc, &balance, &l); err != nil {
				rows.Close()
				return p, err
			}
			baseLines[acc] = lineWas{balance: balance, erp: readAmount(l)}
			baseOrder = append(baseOrder, acc)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return p, err
		}
		if p.Base == asOf {
			p.Replaces, p.ReplacesLines, p.ReplacesBy, p.ReplacesAt = true, len(baseOrder), baseBy, fromStamp(baseAt)
		}
	}
	for i := range lines {
		l := &lines[i]
		p.Total += l.Balance
		r, known := record[strings.TrimSpace(l.Account)]
		inForce := r.limit
		if !known {
			p.New.add(l.Account)
		}
		if l.ERPLimit != nil && (inForce == nil || math.Abs(*inForce-*l.ERPLimit) >= 0.005) {
			p.ERPDiffers++
			if len(p.Diffs) < maxNamed {
				p.Diffs = append(p.Diffs, LimitDiff{Account: l.Account, ERP: *l.ERPLimit, InForce: inForce})
			}
		}
		if w, ok := baseLines[l.Account]; ok {
			w.seen = true
			baseLines[l.Account] = w
			if math.Abs(w.balance-l.Balance) >= 0.005 {
				p.Changed.add(l.Account)
			}
		}
	}
	p.Total = math.Round(p.Total*100) / 100
	p.record, p.base = record, baseLines
	if p.Replaces {
		for _, acc := range baseOrder {
			if !baseLines[acc].seen {
				p.Missing.add(acc)
				p.missing = append(p.missing, acc)
			}
		}
	}
	return p, nil
}
