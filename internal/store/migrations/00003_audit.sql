-- The team's audit trail: one append-only, hash-chained log per team (a
-- team is everyone signed in to one deployment against one service, named
-- by the service as the workspace names it). Nothing in the store updates
-- or deletes these rows; deleting an analyst's workspace leaves them.
-- Conventions as 00001: times as Unix microseconds, TEXT for words.

-- +goose Up
-- audit_heads holds each team's last entry. Every append locks the team's
-- row first (an upsert, which PostgreSQL locks until commit), so appends
-- from any number of replicas form one chain; it also lets verification
-- tell a log whose newest entries were deleted.
CREATE TABLE audit_heads (
    team TEXT   NOT NULL PRIMARY KEY,
    seq  BIGINT NOT NULL,
    at   BIGINT NOT NULL,
    hash TEXT   NOT NULL
);

-- business_id 0 and account '' mean none. hash is the SHA-256, in
-- lowercase hex, of prev_hash and the entry's canonical content (see
-- internal/store/audit.go).
CREATE TABLE audit_entries (
    team        TEXT   NOT NULL,
    seq         BIGINT NOT NULL,
    at          BIGINT NOT NULL,
    actor       TEXT   NOT NULL,
    action      TEXT   NOT NULL,
    account     TEXT   NOT NULL,
    business_id BIGINT NOT NULL,
    old_value   TEXT   NOT NULL,
    new_value   TEXT   NOT NULL,
    reason      TEXT   NOT NULL,
    prev_hash   TEXT   NOT NULL,
    hash        TEXT   NOT NULL,
    PRIMARY KEY (team, seq)
);
-- The filters of GET /audit, each newest first.
CREATE INDEX audit_by_actor ON audit_entries (team, actor, seq);
CREATE INDEX audit_by_action ON audit_entries (team, action, seq);
CREATE INDEX audit_by_account ON audit_entries (team, account, seq);
CREATE INDEX audit_by_time ON audit_entries (team, at);

-- +goose Down
DROP TABLE audit_entries;
DROP TABLE audit_heads;
