-- The account's record apart from the ledger (issue 43). Until now the
-- credit limit lived on each ledger line, so a file without a limit column
-- erased approved limits and a file with one set any limit past four eyes.
--
-- team_accounts is the record: credit_limit is the limit in force, which
-- only a decision changes (decisions_decide.go); status is 'open' (the
-- only status yet). ledger_lines.credit_limit stays as the ERP's limit the
-- file gave, kept with its snapshot and shown beside the limit in force.
--
-- The limit in force moved here is the amount of the account's latest
-- approved request when it has one (a file imported after it may have
-- erased or changed it, never by a decision), else the limit of the
-- newest ledger that listed it. Every limit moved is listed in
-- record_moves, which the store turns into audit entries (one per account,
-- naming this migration) on its first start and then empties: the hash
-- chain is the store's to write, not SQL's.
--
-- ledger_versions keeps every ledger an import of the same date replaced,
-- with its lines, so a replaced version can be restored (ledgers.import_id
-- says which import made each one). ledger_imports gains the import's
-- mode ('full' or 'update', '' before) and its counts as text.

-- +goose Up
ALTER TABLE team_accounts ADD COLUMN credit_limit DOUBLE PRECISION;
ALTER TABLE team_accounts ADD COLUMN status TEXT NOT NULL DEFAULT 'open';
ALTER TABLE ledgers ADD COLUMN import_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE ledger_imports ADD COLUMN mode TEXT NOT NULL DEFAULT '';
ALTER TABLE ledger_imports ADD COLUMN summary TEXT NOT NULL DEFAULT '';

UPDATE ledgers SET import_id = COALESCE((SELECT MAX(i.id) FROM ledger_imports i
    WHERE i.service = ledgers.service AND i.as_of = ledgers.as_of AND i.imported_at = ledgers.imported_at), 0);

CREATE TABLE record_moves (
    service      TEXT             NOT NULL,
    account      TEXT             NOT NULL,
    business_id  BIGINT           NOT NULL,
    credit_limit DOUBLE PRECISION NOT NULL,
    source       TEXT             NOT NULL,
    PRIMARY KEY (service, account)
);

UPDATE team_accounts SET credit_limit = (SELECT r.amount FROM limit_requests r
    WHERE r.service = team_accounts.service AND r.account = team_accounts.account AND r.status = 'approved'
    ORDER BY r.decided_at DESC, r.id DESC LIMIT 1);
INSERT INTO record_moves (service, account, business_id, credit_limit, source)
    SELECT service, account, business_id, credit_limit, 'the latest approved request' FROM team_accounts
    WHERE credit_limit IS NOT NULL;

UPDATE team_accounts SET credit_limit = (SELECT l.credit_limit FROM ledger_lines l JOIN ledgers g ON g.id = l.ledger_id
    WHERE l.account_id = team_accounts.id ORDER BY g.as_of DESC LIMIT 1)
    WHERE credit_limit IS NULL;
INSERT INTO record_moves (service, account, business_id, credit_limit, source)
    SELECT t.service, t.account, t.business_id, t.credit_limit, 'the newest ledger listing the account' FROM team_accounts t
    WHERE t.credit_limit IS NOT NULL AND NOT EXISTS (SELECT 1 FROM record_moves m WHERE m.service = t.service AND m.account = t.account);

CREATE TABLE ledger_versions (
    id          BIGINT NOT NULL PRIMARY KEY,
    service     TEXT   NOT NULL,
    as_of       TEXT   NOT NULL,
    import_id   BIGINT NOT NULL, -- the import that made it; 0: before imports were kept as versions
    imported_at BIGINT NOT NULL,
    imported_by TEXT   NOT NULL,
    lines       INTEGER NOT NULL,
    replaced_at BIGINT NOT NULL,
    replaced_by TEXT   NOT NULL,
    -- why it was replaced: 'import 123' or 'restore of version 456'
    replaced_how TEXT  NOT NULL
);
CREATE INDEX ledger_versions_by_date ON ledger_versions (service, as_of, replaced_at);

CREATE TABLE ledger_version_lines (
    version_id   BIGINT           NOT NULL REFERENCES ledger_versions (id) ON DELETE CASCADE,
    account_id   BIGINT           NOT NULL,
    balance      DOUBLE PRECISION NOT NULL,
    current_due  DOUBLE PRECISION NOT NULL,
    days_1_30    DOUBLE PRECISION NOT NULL,
    days_31_60   DOUBLE PRECISION NOT NULL,
    days_61_90   DOUBLE PRECISION NOT NULL,
    days_over_90 DOUBLE PRECISION NOT NULL,
    credit_limit DOUBLE PRECISION,
    terms_days   INTEGER,
    PRIMARY KEY (version_id, account_id)
);

-- +goose Down
DROP TABLE ledger_version_lines;
DROP TABLE ledger_versions;
DROP TABLE record_moves;
ALTER TABLE ledger_imports DROP COLUMN summary;
ALTER TABLE ledger_imports DROP COLUMN mode;
ALTER TABLE ledgers DROP COLUMN import_id;
ALTER TABLE team_accounts DROP COLUMN status;
ALTER TABLE team_accounts DROP COLUMN credit_limit;
