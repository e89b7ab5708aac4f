-- The team's credit policy as versioned data (issue 45): every version a
-- manager saves is a row of policy_versions, never changed (body is the
-- policy as JSON, internal/policy reads it); a version is put in force by
-- a second manager, a row of policy_activations. The version in force is
-- the one activated last. Conventions as 00001.

-- +goose Up
CREATE TABLE policy_versions (
    id         BIGINT  NOT NULL PRIMARY KEY,
    service    TEXT    NOT NULL,
    version    INTEGER NOT NULL, -- 1, 2, ... per team
    body       TEXT    NOT NULL,
    note       TEXT    NOT NULL,
    created_by TEXT    NOT NULL,
    created_at BIGINT  NOT NULL,
    UNIQUE (service, version)
);

CREATE TABLE policy_activations (
    id           BIGINT NOT NULL PRIMARY KEY,
    service      TEXT   NOT NULL,
    version_id   BIGINT NOT NULL REFERENCES policy_versions (id),
    activated_by TEXT   NOT NULL,
    activated_at BIGINT NOT NULL
);
CREATE INDEX policy_activations_by_team ON policy_activations (service, activated_at);

-- +goose Down
DROP TABLE policy_activations;
DROP TABLE policy_versions;
