-- The e-mail digest (issue 28): one row per analyst who set it up. The
-- address is in use only once verified_email equals it; last_period is the
-- period ("day 2026-11-27", "week 2026-11-23") whose digest went out, so a
-- period's digest is sent once even after the job queue forgot its job.

-- +goose Up
CREATE TABLE digest_settings (
    analyst_id     BIGINT NOT NULL PRIMARY KEY REFERENCES analysts (id) ON DELETE CASCADE,
    email          TEXT   NOT NULL,
    verified_email TEXT   NOT NULL,
    verified_at    BIGINT NOT NULL,
    frequency      TEXT   NOT NULL,
    verify_sent_at BIGINT NOT NULL,
    last_sent_at   BIGINT NOT NULL,
    last_period    TEXT   NOT NULL,
    failed_at      BIGINT NOT NULL,
    failure        TEXT   NOT NULL,
    updated_at     BIGINT NOT NULL
);

-- +goose Down
DROP TABLE digest_settings;
