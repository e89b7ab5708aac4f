-- A rule remembers the newest month of the alerts pruned from it, so a
-- firing it had already raised and lost to the bound on alerts held is not
-- raised again: evaluations settle instead of inserting, pruning and
-- inserting the same alerts for ever.

-- +goose Up
ALTER TABLE rules ADD COLUMN pruned_month INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE rules DROP COLUMN pruned_month;
