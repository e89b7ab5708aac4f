-- The worklist and the third review trigger (issue 27): the newest
-- statement year the team has seen of each linked business, and the one
-- known when an account was reviewed, so a newer year brings the next
-- review to today. The new column has a default, so the reviews already
-- stored read as "no statement year known then". Owners live in
-- team_accounts.owner (00002). Conventions as 00001.

-- +goose Up
ALTER TABLE account_reviews ADD COLUMN statement_year INTEGER NOT NULL DEFAULT 0;

CREATE TABLE team_statement_years (
    service     TEXT    NOT NULL,
    business_id BIGINT  NOT NULL,
    year        INTEGER NOT NULL,
    fetched_at  BIGINT  NOT NULL,
    PRIMARY KEY (service, business_id)
);

-- +goose Down
DROP TABLE team_statement_years;
ALTER TABLE account_reviews DROP COLUMN statement_year;
