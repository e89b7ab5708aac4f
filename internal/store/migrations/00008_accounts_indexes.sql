-- Covering indexes for reading a whole ledger (issue 26's /accounts and
-- /portfolio/exposure with 50,000 accounts).
--
-- Ids are random, so a ledger's lines, read in their key's order
-- (ledger_id, account_id), visit team_accounts' and ledger_lines' own rows
-- in no order at all: every line cost two random page reads, and a
-- 50,000-line ledger did not fit SQLite's 1 MiB page cache per connection.
-- These indexes hold every column the accounts query reads of the two
-- tables, in the order of account_id, so the query walks them side by
-- side, page after page, and never touches the tables' rows (see
-- ledgerDate in accounts_read.go). PostgreSQL can read them as index-only
-- scans. Calculator inputs are saved one account at a time, so
-- limit_inputs stays small and keeps its primary key.

-- +goose Up
CREATE INDEX ledger_lines_read ON ledger_lines (ledger_id, account_id, balance, current_due, days_1_30, days_31_60,
    days_61_90, days_over_90, credit_limit, terms_days);
CREATE INDEX team_accounts_read ON team_accounts (id, service, account, name, business_id, customer_id, supplier_id, owner);

-- +goose Down
DROP INDEX team_accounts_read;
DROP INDEX ledger_lines_read;
