package store

import (
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"creditdash/internal/store/storetest"
)

// TestMigrationMovesLimitsIntoTheRecord: a database of before issue 43,
// where limits lived on ledger lines (one erased by a file without a
// limit column after its approval), migrates to records whose limit in
// force is the latest approved request's, else the newest ledger's; every
// limit moved is audited once, naming the migration and its source.
func TestMigrationMovesLimitsIntoTheRecord(t *testing.T) {
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			cfg, db := migratedTo(t, e, 14)
			sv := alice.Service
			for _, q := range []string{
				"INSERT INTO team_accounts (id, service, account, name, business_id, customer_id, supplier_id, owner, as_of, created_at, created_by, updated_at, updated_by) VALUES (1, '" + sv + "', 'A-1', 'One', 1001, '', '', '', '2026-10-31', 1, 'x', 1, 'x')",
				"INSERT INTO team_accounts (id, service, account, name, business_id, customer_id, supplier_id, owner, as_of, created_at, created_by, updated_at, updated_by) VALUES (2, '" + sv + "', 'A-2', 'Two', 1002, '', '', '', '2026-10-31', 1, 'x', 1, 'x')",
				"INSERT INTO team_accounts (id, service, account, name, business_id, customer_id, supplier_id, owner, as_of, created_at, created_by, updated_at, updated_by) VALUES (3, '" + sv + "', 'A-3', 'Three', 0, '', '', '', '2026-10-31', 1, 'x', 1, 'x')",
				"INSERT INTO ledgers (id, service, as_of, imported_at, imported_by) VALUES (10, '" + sv + "', '2026-09-30', 5, 'x')",
				"INSERT INTO ledgers (id, service, as_of, imported_at, imported_by) VALUES (11, '" + sv + "', '2026-10-31', 20, 'x')",
				"INSERT INTO ledger_imports (id, service, as_of, file_name, imported_at, imported_by, imported, skipped, replaced, dropped) VALUES (99, '" + sv + "', '2026-10-31', 'oct.csv', 20, 'x', 3, 0, 0, '')",
				"INSERT INTO ledger_lines (ledger_id, account_id, balance, current_due, days_1_30, days_31_60, days_61_90, days_over_90, credit_limit, terms_days) VALUES (10, 1, 1, 1, 0, 0, 0, 0, 1000, NULL)",
				"INSERT INTO ledger_lines (ledger_id, account_id, balance, current_due, days_1_30, days_31_60, days_61_90, days_over_90, credit_limit, terms_days) VALUES (11, 1, 1, 1, 0, 0, 0, 0, NULL, NULL)",
				"INSERT INTO ledger_lines (ledger_id, account_id, balance, current_due, days_1_30, days_31_60, days_61_90, days_over_90, credit_limit, terms_days) VALUES (11, 2, 1, 1, 0, 0, 0, 0, 5000, NULL)",
				"INSERT INTO ledger_lines (ledger_id, account_id, balance, current_due, days_1_30, days_31_60, days_61_90, days_over_90, credit_limit, terms_days) VALUES (11, 3, 1, 1, 0, 0, 0, 0, NULL, NULL)",
				"INSERT INTO limit_requests (id, service, account, business_id, amount, old_limit, reason, calculator, requested_by, requested_at, authority, status, decided_by, decided_at, decision_note) VALUES (7, '" + sv + "', 'A-1', 1001, 40000, NULL, 'r', '', 'bob', 8, 0, 'approved', 'carol', 10, '')",
			} {
				if _, err := db.ExecContext(t.Context(), q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			must(t, db.Close())

			s := openTest(t, e, cfg)
			r := recordOf(t, s)
			if amountText(r["A-1"].Limit) != "40000" || amountText(r["A-2"].Limit) != "5000" || r["A-3"].Limit != nil {
				t.Errorf("limits in force: A-1 %s, A-2 %s, A-3 %s", amountText(r["A-1"].Limit), amountText(r["A-2"].Limit), amountText(r["A-3"].Limit))
			}
			if amountText(r["A-2"].ERPLimit) != "5000" || r["A-1"].ERPLimit != nil {
				t.Errorf("ERP limits: A-1 %s, A-2 %s", amountText(r["A-1"].ERPLimit), amountText(r["A-2"].ERPLimit))
			}
			es := auditOf(t, s, sv, AuditActionLimit)
			if len(es) != 2 || es[0].Actor != "migration" || es[0].Account != "A-1" || es[0].NewValue != "40000" ||
				!strings.Contains(es[0].Reason, "migration 00015") || !strings.Contains(es[0].Reason, "approved request") ||
				es[1].Account != "A-2" || !strings.Contains(es[1].Reason, "newest ledger") {
				t.Errorf("migration logged %+v", es)
			}
			if n := countWhere(t, s, "record_moves", "1 = 1"); n != 0 {
				t.Errorf("%d moves left unlogged", n)
			}
			var imp int64
			must(t, s.r.QueryRowContext(t.Context(), "SELECT import_id FROM ledgers WHERE id = 11").Scan(&imp))
			if imp != 99 {
				t.Errorf("October's ledger names import %d, want 99", imp)
			}
			must(t, s.Close())
			// Opening again logs nothing more.
			s = openTest(t, e, cfg)
			if v, err := s.VerifyAudit(t.Context(), sv); err != nil || v.Entries != 2 || !v.Intact {
				t.Errorf("after reopening: %+v, %v", v, err)
			}
		})
	}
}

// migratedTo opens a new database of engine e migrated up to version, for
// a test to fill as an older CreditDash left it; the store opened on cfg
// afterwards migrates the rest.
func migratedTo(t *testing.T, e Engine, version int64) (Config, *sql.DB) {
	t.Helper()
	var cfg Config
	var db *sql.DB
	dialect := goose.DialectSQLite3
	if e == SQLite {
		cfg.DataDir = t.TempDir()
		must(t, os.MkdirAll(cfg.DataDir, 0o700))
		var err error
		db, err = sql.Open("sqlite", "file:"+filepath.Join(cfg.DataDir, FileName)+"?_pragma=foreign_keys(1)")
		must(t, err)
	} else {
		cfg.DatabaseURL = storetest.Database(t)
		dialect = goose.DialectPostgres
		c, err := pgx.ParseConfig(cfg.DatabaseURL)
		must(t, err)
		db = stdlib.OpenDB(*c)
	}
	dir, err := fs.Sub(migrations, "migrations")
	must(t, err)
	p, err := goose.NewProvider(dialect, db, dir, goose.WithDisableGlobalRegistry(true))
	must(t, err)
	_, err = p.UpTo(t.Context(), version)
	must(t, err)
	return cfg, db
}
