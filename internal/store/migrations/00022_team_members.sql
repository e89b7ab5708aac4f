-- The team on a page (issue 46.5): members are team data, no longer the
-- configuration's. TEAM_ROLES only bootstraps an empty team; after that an
-- admin adds and changes members on /team. Keyed by the service as the
-- team's other tables (00002); times as Unix microseconds (00001).
--
-- team_members is who is in the team now, with role and authority (whole
-- currency units; an auditor's is 0) and who last changed them.
-- team_member_changes is every change ever made or proposed, never
-- rewritten past its decision: applied (at once), pending (waiting for a
-- second admin: a raise of authority, or making someone a manager or an
-- admin), approved, declined or withdrawn. old_role '' is someone who was
-- not a member; new_role '' a member removed. Each is also in the audit
-- trail (00003), appended in the same transaction.

-- +goose Up
CREATE TABLE team_members (
    service    TEXT   NOT NULL,
    name       TEXT   NOT NULL,
    role       TEXT   NOT NULL,
    authority  BIGINT NOT NULL,
    added_by   TEXT   NOT NULL,
    added_at   BIGINT NOT NULL,
    changed_by TEXT   NOT NULL,
    changed_at BIGINT NOT NULL,
    PRIMARY KEY (service, name)
);

CREATE TABLE team_member_changes (
    id            BIGINT NOT NULL PRIMARY KEY,
    service       TEXT   NOT NULL,
    name          TEXT   NOT NULL,
    old_role      TEXT   NOT NULL,
    old_authority BIGINT NOT NULL,
    new_role      TEXT   NOT NULL,
    new_authority BIGINT NOT NULL,
    reason        TEXT   NOT NULL,
    proposed_by   TEXT   NOT NULL,
    proposed_at   BIGINT NOT NULL,
    status        TEXT   NOT NULL,
    decided_by    TEXT   NOT NULL,
    decided_at    BIGINT NOT NULL,
    note          TEXT   NOT NULL
);
CREATE INDEX team_member_changes_by_time ON team_member_changes (service, proposed_at);
CREATE INDEX team_member_changes_by_status ON team_member_changes (service, status);

-- +goose Down
DROP TABLE team_member_changes;
DROP TABLE team_members;
