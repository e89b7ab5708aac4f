-- The requester is told the outcome of their limit requests (issue 48):
-- on their home page until they mark the outcomes seen, so each analyst
-- keeps when they last did (Unix microseconds; 0: never).

-- +goose Up
ALTER TABLE analysts ADD COLUMN outcomes_seen_at BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE analysts DROP COLUMN outcomes_seen_at;
