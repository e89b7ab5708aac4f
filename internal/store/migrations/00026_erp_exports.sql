-- Limits and holds back to the ERP (issue 46.4). Keyed by the service as
-- the team's other tables (00002); ids from the store and times as Unix
-- microseconds (00001); amounts DOUBLE PRECISION as the ledgers keep them.
--
-- erp_exports is every recorded export: who, when, for which system, and
-- its counts; erp_export_lines what each sent, so a file can be made again
-- exactly as it went. erp_sent is each account's state as the ERP last
-- received it (the limit sent, NULL for none; held 1 or 0), which the next
-- worksheet is compared with, so it holds only what changed since. The
-- over-limit threshold is a row of team_settings (00020).

-- +goose Up
CREATE TABLE erp_exports (
    id          BIGINT NOT NULL PRIMARY KEY,
    service     TEXT   NOT NULL,
    system      TEXT   NOT NULL,
    exported_by TEXT   NOT NULL,
    exported_at BIGINT NOT NULL,
    limits      BIGINT NOT NULL,
    holds       BIGINT NOT NULL,
    releases    BIGINT NOT NULL,
    line_count  BIGINT NOT NULL
);
CREATE INDEX erp_exports_by_time ON erp_exports (service, exported_at);

CREATE TABLE erp_export_lines (
    export_id     BIGINT           NOT NULL REFERENCES erp_exports (id),
    account       TEXT             NOT NULL,
    name          TEXT             NOT NULL,
    credit_limit  DOUBLE PRECISION,
    limit_changed INTEGER          NOT NULL,
    previous      DOUBLE PRECISION,
    action        TEXT             NOT NULL,
    reasons       TEXT             NOT NULL,
    PRIMARY KEY (export_id, account)
);

CREATE TABLE erp_sent (
    service      TEXT             NOT NULL,
    account      TEXT             NOT NULL,
    credit_limit DOUBLE PRECISION,
    held         INTEGER          NOT NULL,
    export_id    BIGINT           NOT NULL,
    PRIMARY KEY (service, account)
);

-- +goose Down
DROP TABLE erp_sent;
DROP TABLE erp_export_lines;
DROP TABLE erp_exports;
