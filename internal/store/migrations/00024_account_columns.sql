-- The columns an analyst chose to see on /accounts (issue 48): their own
-- view of the team's record, kept with the analyst so it follows them to
-- any browser. Comma-separated column names; '' keeps the page's defaults.

-- +goose Up
ALTER TABLE analysts ADD COLUMN account_columns TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE analysts DROP COLUMN account_columns;
