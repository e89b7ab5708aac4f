-- Personal access tokens for /api/v1 (issue 46.2). A token belongs to one
-- member of a team (service, user_name) and acts with that member's role
-- and authority as they are when it is used. Only the SHA-256 of the
-- secret is kept (hash, lowercase hex): the secret is shown once, when
-- made, and cannot be read back. prefix is the secret's first characters,
-- so a member can tell their tokens apart. A revoked token keeps its row
-- (revoked_at, revoked_by); creation and revocation are in the team's
-- audit trail. Times are Unix microseconds as in 00001; last_used_at is 0
-- for never, revoked_at 0 for not revoked.

-- +goose Up
CREATE TABLE api_tokens (
    id           BIGINT NOT NULL PRIMARY KEY,
    service      TEXT   NOT NULL,
    user_name    TEXT   NOT NULL,
    name         TEXT   NOT NULL,
    scope        TEXT   NOT NULL, -- 'read' or 'write'
    hash         TEXT   NOT NULL UNIQUE,
    prefix       TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL,
    revoked_at   BIGINT NOT NULL,
    revoked_by   TEXT   NOT NULL
);
CREATE INDEX api_tokens_by_user ON api_tokens (service, user_name, created_at);

-- +goose Down
DROP TABLE api_tokens;
