-- A covering index for /accounts' counts and sums (issue 43.6): the page
-- reads one page of the record's rows, and counts and sums every account
-- grouped by business (store.RecordSummary). Walking this index in the
-- order of business_id, the aggregate reads none of team_accounts' rows,
-- and joins each account to its newest line through ledger_lines_read
-- (00008), which covers the line.

-- +goose Up
CREATE INDEX team_accounts_groups ON team_accounts (service, business_id, id, credit_limit, customer_id, supplier_id, owner);

-- +goose Down
DROP INDEX team_accounts_groups;
