-- The calculator inputs saved for an account, kept as dated versions
-- (issue 45): limit_inputs held one row per account, replaced by each
-- save, so the calculator's figures of a past day could not be rebuilt.
-- Every save is now a new row, never changed; the inputs in force are
-- the account's highest version, and the inputs of any past instant the
-- newest saved by then. Today's rows move over as each account's version
-- 1, dated by their save. Conventions as 00001.

-- +goose Up
CREATE TABLE limit_input_versions (
    account_id     BIGINT           NOT NULL REFERENCES team_accounts (id) ON DELETE CASCADE,
    version        INTEGER          NOT NULL, -- 1, 2, ... per account
    monthly_sales  DOUBLE PRECISION NOT NULL,
    months_allowed DOUBLE PRECISION NOT NULL,
    loss_budget    DOUBLE PRECISION NOT NULL,
    -- The balance-sheet cap worked out from the statements when saved (NULL:
    -- none).
    sheet_cap      DOUBLE PRECISION,
    saved_at       BIGINT           NOT NULL,
    saved_by       TEXT             NOT NULL,
    PRIMARY KEY (account_id, version)
);
INSERT INTO limit_input_versions (account_id, version, monthly_sales, months_allowed, loss_budget, sheet_cap, saved_at, saved_by)
    SELECT account_id, 1, monthly_sales, months_allowed, loss_budget, sheet_cap, saved_at, saved_by FROM limit_inputs;
DROP TABLE limit_inputs;

-- +goose Down
CREATE TABLE limit_inputs (
    account_id     BIGINT           NOT NULL PRIMARY KEY REFERENCES team_accounts (id) ON DELETE CASCADE,
    monthly_sales  DOUBLE PRECISION NOT NULL,
    months_allowed DOUBLE PRECISION NOT NULL,
    loss_budget    DOUBLE PRECISION NOT NULL,
    sheet_cap      DOUBLE PRECISION,
    saved_at       BIGINT           NOT NULL,
    saved_by       TEXT             NOT NULL
);
INSERT INTO limit_inputs (account_id, monthly_sales, months_allowed, loss_budget, sheet_cap, saved_at, saved_by)
    SELECT v.account_id, v.monthly_sales, v.months_allowed, v.loss_budget, v.sheet_cap, v.saved_at, v.saved_by
    FROM limit_input_versions v
    WHERE v.version = (SELECT MAX(x.version) FROM limit_input_versions x WHERE x.account_id = v.account_id);
DROP TABLE limit_input_versions;
