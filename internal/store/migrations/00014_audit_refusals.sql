-- Refusals past the first few a minute of one user are counted here, not
-- logged one by one; the count enters the team's audit trail as one entry
-- with its next append after that minute, which deletes the row
-- (store/audit_refusals.go). minute is Unix minutes.

-- +goose Up
CREATE TABLE audit_refusals (
    team   TEXT   NOT NULL,
    actor  TEXT   NOT NULL,
    minute BIGINT NOT NULL,
    seen   BIGINT NOT NULL,
    PRIMARY KEY (team, actor, minute)
);

-- +goose Down
DROP TABLE audit_refusals;
