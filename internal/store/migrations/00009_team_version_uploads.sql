-- The team's version and the ledger files waiting for their import
-- (issue 26, at 50,000 accounts and behind several replicas).
--
-- team_versions holds one number per team (service) that every team write
-- moves forward in its own transaction (teamWrite), so a replica keeps the
-- figures it worked out of a ledger for as long as the number stays, and
-- one query of a single row tells it whether they still hold.
--
-- pending_uploads keeps each analyst's previewed file until its import is
-- confirmed, so the confirmation may land on any replica. One per analyst
-- (a new preview replaces it), a few per team, each for 30 minutes; the
-- store drops the rest (see uploads.go). Conventions as 00001; the file is
-- stored as its bytes (BYTEA, which SQLite keeps as a BLOB).

-- +goose Up
CREATE TABLE team_versions (
    service TEXT   NOT NULL PRIMARY KEY,
    version BIGINT NOT NULL
);

CREATE TABLE pending_uploads (
    id         BIGINT NOT NULL PRIMARY KEY,
    service    TEXT   NOT NULL,
    user_name  TEXT   NOT NULL,
    token      TEXT   NOT NULL,
    file_name  TEXT   NOT NULL,
    size       BIGINT NOT NULL,
    data       BYTEA  NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (service, user_name)
);
CREATE INDEX pending_uploads_by_team ON pending_uploads (service, created_at);

-- +goose Down
DROP TABLE pending_uploads;
DROP TABLE team_versions;
