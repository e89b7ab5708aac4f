-- The analyst's workspace. One file serves SQLite and PostgreSQL, so it keeps
-- to what both accept: BIGINT ids assigned by the store (no SERIAL or
-- AUTOINCREMENT, whose syntax differs), times as Unix microseconds, TEXT for
-- words and JSON, DOUBLE PRECISION for scores, NULL for "never".

-- +goose Up
CREATE TABLE analysts (
    id         BIGINT NOT NULL PRIMARY KEY,
    service    TEXT   NOT NULL,
    user_name  TEXT   NOT NULL,
    created_at BIGINT NOT NULL,
    written_at BIGINT NOT NULL,
    UNIQUE (service, user_name)
);

CREATE TABLE watches (
    analyst_id  BIGINT NOT NULL REFERENCES analysts (id) ON DELETE CASCADE,
    business_id BIGINT NOT NULL,
    name        TEXT   NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (analyst_id, business_id)
);

CREATE TABLE notes (
    id          BIGINT NOT NULL PRIMARY KEY,
    analyst_id  BIGINT NOT NULL REFERENCES analysts (id) ON DELETE CASCADE,
    business_id BIGINT NOT NULL,
    author      TEXT   NOT NULL,
    body        TEXT   NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX notes_by_business ON notes (analyst_id, business_id, created_at);

CREATE TABLE rules (
    id          BIGINT           NOT NULL PRIMARY KEY,
    analyst_id  BIGINT           NOT NULL REFERENCES analysts (id) ON DELETE CASCADE,
    scope       TEXT             NOT NULL,
    business_id BIGINT           NOT NULL,
    folder_id   BIGINT           NOT NULL,
    target_name TEXT             NOT NULL,
    score       TEXT             NOT NULL,
    cond        TEXT             NOT NULL,
    threshold   DOUBLE PRECISION NOT NULL,
    created_at  BIGINT           NOT NULL
);
CREATE INDEX rules_by_analyst ON rules (analyst_id, created_at);

CREATE TABLE alerts (
    id          BIGINT           NOT NULL PRIMARY KEY,
    analyst_id  BIGINT           NOT NULL REFERENCES analysts (id) ON DELETE CASCADE,
    rule_id     BIGINT           NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
    business_id BIGINT           NOT NULL,
    business_name TEXT           NOT NULL,
    month       INTEGER          NOT NULL,
    old_value   DOUBLE PRECISION,
    new_value   DOUBLE PRECISION NOT NULL,
    created_at  BIGINT           NOT NULL,
    read_at     BIGINT,
    UNIQUE (rule_id, business_id, month)
);
CREATE INDEX alerts_by_analyst ON alerts (analyst_id, created_at);
-- The header shows the unread count on every page; this keeps it an index scan.
CREATE INDEX alerts_unread ON alerts (analyst_id) WHERE read_at IS NULL;

CREATE TABLE last_seen (
    analyst_id  BIGINT           NOT NULL REFERENCES analysts (id) ON DELETE CASCADE,
    business_id BIGINT           NOT NULL,
    score       TEXT             NOT NULL,
    value       DOUBLE PRECISION NOT NULL,
    seen_at     BIGINT           NOT NULL,
    PRIMARY KEY (analyst_id, business_id, score)
);
CREATE INDEX last_seen_by_time ON last_seen (analyst_id, seen_at);

CREATE TABLE snapshots (
    id            BIGINT NOT NULL PRIMARY KEY,
    analyst_id    BIGINT NOT NULL REFERENCES analysts (id) ON DELETE CASCADE,
    business_id   BIGINT NOT NULL,
    business_name TEXT   NOT NULL,
    tab           TEXT   NOT NULL,
    fetched_at    BIGINT NOT NULL,
    created_at    BIGINT NOT NULL,
    size          BIGINT NOT NULL,
    data          TEXT   NOT NULL
);
CREATE INDEX snapshots_by_analyst ON snapshots (analyst_id, created_at);

-- +goose Down
DROP TABLE snapshots;
DROP TABLE last_seen;
DROP TABLE alerts;
DROP TABLE rules;
DROP TABLE notes;
DROP TABLE watches;
DROP TABLE analysts;
