-- The supplier category divergence rules follow is the team's own, set
-- once in settings (issue 28), not each analyst's: one row per team (the
-- service), with who set it last; every change is in the audit trail.
-- A team whose analysts had set their own keeps the most recently set one
-- (the smallest code on a tie, so the copy is deterministic).

-- +goose Up
CREATE TABLE team_supplier_categories (
    service    TEXT   NOT NULL PRIMARY KEY,
    code       TEXT   NOT NULL,
    updated_at BIGINT NOT NULL,
    updated_by TEXT   NOT NULL
);

INSERT INTO team_supplier_categories (service, code, updated_at, updated_by)
SELECT a.service, MIN(s.code), MAX(s.updated_at), MIN(a.user_name)
FROM supplier_categories s JOIN analysts a ON a.id = s.analyst_id
WHERE s.updated_at = (SELECT MAX(s2.updated_at) FROM supplier_categories s2 JOIN analysts a2 ON a2.id = s2.analyst_id
    WHERE a2.service = a.service)
GROUP BY a.service;

DROP TABLE supplier_categories;

-- +goose Down
CREATE TABLE supplier_categories (
    analyst_id BIGINT NOT NULL PRIMARY KEY REFERENCES analysts (id) ON DELETE CASCADE,
    code       TEXT   NOT NULL,
    updated_at BIGINT NOT NULL
);
DROP TABLE team_supplier_categories;
