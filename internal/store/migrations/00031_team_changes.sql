-- What each team write touched of the accounts' figures (issue 47), so
-- any replica, not only the one that wrote, can bring the figures it keeps
-- forward by working out again only the touched accounts. Each write adds
-- its row in its own transaction, under the version it moved the team to
-- (team_versions) and with the one it moved it from; touched is JSON
-- ({"a": account keys, "b": business ids}), NULL for a write that may have
-- touched every account. The newest 256 a team are kept (team_changes.go).
-- Conventions as 00001.

-- +goose Up
CREATE TABLE team_changes (
    service TEXT   NOT NULL,
    version BIGINT NOT NULL,
    prev    BIGINT NOT NULL,
    touched TEXT,
    PRIMARY KEY (service, version)
);

-- +goose Down
DROP TABLE team_changes;
