-- Bounds that hold against a hostile analyst (issue 29).
--
-- A rule remembers the newest month of the alerts pruned from it, so a
-- firing it had already raised and lost to the bound on alerts held is not
-- raised again: evaluations settle instead of inserting, pruning and
-- inserting the same alerts for ever.
--
-- A note keeps its size in bytes, so the analyst's budget for notes is a
-- sum over a column rather than over every text. Notes written before
-- count their characters, the nearest both engines agree on.

-- +goose Up
ALTER TABLE rules ADD COLUMN pruned_month INTEGER NOT NULL DEFAULT 0;
ALTER TABLE notes ADD COLUMN size BIGINT NOT NULL DEFAULT 0;
UPDATE notes SET size = LENGTH(body);

-- +goose Down
ALTER TABLE notes DROP COLUMN size;
ALTER TABLE rules DROP COLUMN pruned_month;
