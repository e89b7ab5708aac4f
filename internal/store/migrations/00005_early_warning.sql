-- Early warning (issue 28): divergence rules name a supplier SIC category
-- and how little the overall DBT may move; each analyst may set their own
-- supplier category once, for rules that follow it. The new columns have
-- defaults, so the rules already stored keep working as they were.

-- +goose Up
ALTER TABLE rules ADD COLUMN category TEXT NOT NULL DEFAULT '';
ALTER TABLE rules ADD COLUMN steady DOUBLE PRECISION NOT NULL DEFAULT 0;

CREATE TABLE supplier_categories (
    analyst_id BIGINT NOT NULL PRIMARY KEY REFERENCES analysts (id) ON DELETE CASCADE,
    code       TEXT   NOT NULL,
    updated_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE supplier_categories;
ALTER TABLE rules DROP COLUMN steady;
ALTER TABLE rules DROP COLUMN category;
