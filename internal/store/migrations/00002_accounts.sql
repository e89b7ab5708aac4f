-- The team's accounts (issue 26). A team is everyone signed in against one
-- service, so team rows are keyed by the service, never by an analyst: an
-- analyst who deletes their workspace leaves the team's ledgers in place.
-- Who did what is kept as user names beside each change, and every import
-- is written to ledger_imports, which nothing updates or deletes.
-- Dates (as of) are 'YYYY-MM-DD' text, months YYYYMM integers; the rest
-- follows 00001.

-- +goose Up
CREATE TABLE team_accounts (
    id          BIGINT NOT NULL PRIMARY KEY,
    service     TEXT   NOT NULL,
    account     TEXT   NOT NULL,
    name        TEXT   NOT NULL,
    business_id BIGINT NOT NULL, -- 0: not linked (yet)
    customer_id TEXT   NOT NULL,
    supplier_id TEXT   NOT NULL,
    owner       TEXT   NOT NULL,
    -- as_of is the newest ledger that set name, links and owner: an older
    -- ledger imported later does not overwrite them.
    as_of       TEXT   NOT NULL,
    created_at  BIGINT NOT NULL,
    created_by  TEXT   NOT NULL,
    updated_at  BIGINT NOT NULL,
    updated_by  TEXT   NOT NULL,
    UNIQUE (service, account)
);
CREATE INDEX team_accounts_by_business ON team_accounts (service, business_id);

CREATE TABLE ledgers (
    id          BIGINT NOT NULL PRIMARY KEY,
    service     TEXT   NOT NULL,
    as_of       TEXT   NOT NULL,
    imported_at BIGINT NOT NULL,
    imported_by TEXT   NOT NULL,
    UNIQUE (service, as_of)
);

CREATE TABLE ledger_lines (
    ledger_id    BIGINT           NOT NULL REFERENCES ledgers (id) ON DELETE CASCADE,
    account_id   BIGINT           NOT NULL REFERENCES team_accounts (id) ON DELETE CASCADE,
    balance      DOUBLE PRECISION NOT NULL,
    current_due  DOUBLE PRECISION NOT NULL,
    days_1_30    DOUBLE PRECISION NOT NULL,
    days_31_60   DOUBLE PRECISION NOT NULL,
    days_61_90   DOUBLE PRECISION NOT NULL,
    days_over_90 DOUBLE PRECISION NOT NULL,
    credit_limit DOUBLE PRECISION, -- NULL: none given
    terms_days   INTEGER,          -- NULL: none given
    PRIMARY KEY (ledger_id, account_id)
);
CREATE INDEX ledger_lines_by_account ON ledger_lines (account_id);

-- Every import, kept: the evidence of who brought which figures in.
CREATE TABLE ledger_imports (
    id          BIGINT NOT NULL PRIMARY KEY,
    service     TEXT   NOT NULL,
    as_of       TEXT   NOT NULL,
    file_name   TEXT   NOT NULL,
    imported_at BIGINT NOT NULL,
    imported_by TEXT   NOT NULL,
    imported    INTEGER NOT NULL,
    skipped     INTEGER NOT NULL,
    replaced    INTEGER NOT NULL, -- 1: an earlier import of this date was replaced
    dropped     TEXT   NOT NULL   -- dates dropped past the bound, comma-separated
);
CREATE INDEX ledger_imports_by_service ON ledger_imports (service, imported_at);

CREATE TABLE limit_inputs (
    account_id     BIGINT           NOT NULL PRIMARY KEY REFERENCES team_accounts (id) ON DELETE CASCADE,
    monthly_sales  DOUBLE PRECISION NOT NULL,
    months_allowed DOUBLE PRECISION NOT NULL,
    loss_budget    DOUBLE PRECISION NOT NULL,
    -- The balance-sheet cap worked out from the statements when saved (NULL:
    -- none), so the implied limit needs no request.
    sheet_cap      DOUBLE PRECISION,
    saved_at       BIGINT           NOT NULL,
    saved_by       TEXT             NOT NULL
);

-- The latest score of each linked business any analyst's page received.
CREATE TABLE team_scores (
    service     TEXT             NOT NULL,
    business_id BIGINT           NOT NULL,
    score       TEXT             NOT NULL,
    month       INTEGER          NOT NULL,
    value       DOUBLE PRECISION NOT NULL,
    fetched_at  BIGINT           NOT NULL,
    PRIMARY KEY (service, business_id, score)
);
CREATE INDEX team_scores_by_time ON team_scores (service, fetched_at);

-- What the team knows of a linked business beyond its scores: its name and
-- main industry (NAICS), for the exposure by industry.
CREATE TABLE team_businesses (
    service     TEXT   NOT NULL,
    business_id BIGINT NOT NULL,
    name        TEXT   NOT NULL,
    naics       TEXT   NOT NULL,
    naics_title TEXT   NOT NULL,
    fetched_at  BIGINT NOT NULL,
    PRIMARY KEY (service, business_id)
);

-- Risk month by month, so the expected-loss bridge knows each account's
-- band as of each ledger date.
CREATE TABLE team_risk_months (
    service     TEXT             NOT NULL,
    business_id BIGINT           NOT NULL,
    month       INTEGER          NOT NULL,
    value       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (service, business_id, month)
);

-- +goose Down
DROP TABLE team_risk_months;
DROP TABLE team_businesses;
DROP TABLE team_scores;
DROP TABLE limit_inputs;
DROP TABLE ledger_imports;
DROP TABLE ledger_lines;
DROP TABLE ledgers;
DROP TABLE team_accounts;
