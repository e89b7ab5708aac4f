-- The analyst's budget for notes sums their sizes on every note added or
-- edited. The size column sits after the body, so without this index
-- SQLite reads every note's text (its overflow pages) to reach it, and
-- adding a note gets slower with every note kept; the index answers the
-- sum alone on both engines.

-- +goose Up
CREATE INDEX notes_size_by_analyst ON notes (analyst_id, size);

-- +goose Down
DROP INDEX notes_size_by_analyst;
