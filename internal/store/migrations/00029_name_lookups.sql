-- Names waiting for the service's Business/Search (issue 43.3). An import
-- looks up the names the team does not know within a budget of requests;
-- the names past it wait here, one row per account, until a signed-in
-- analyst asks for the next ones to be looked up: jobs hold no session key,
-- so no job works the queue. A row goes when its name is looked up (the
-- outcome is in the audit trail) or its account is linked otherwise.

-- +goose Up
CREATE TABLE name_lookups (
    service   TEXT   NOT NULL,
    account   TEXT   NOT NULL,
    name      TEXT   NOT NULL,
    import_id BIGINT NOT NULL, -- the import that queued it
    queued_at BIGINT NOT NULL,
    queued_by TEXT   NOT NULL,
    PRIMARY KEY (service, account)
);
CREATE INDEX name_lookups_by_age ON name_lookups (service, queued_at, account);

-- +goose Down
DROP TABLE name_lookups;
