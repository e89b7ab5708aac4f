-- A limit request keeps, in words, what the team's credit policy in force
-- said of it when it was asked (issue 45): the version, the account's
-- class, the policy limit and its rule, the at-once amount. '' for a
-- request asked with no policy in force. Conventions as 00001.

-- +goose Up
ALTER TABLE limit_requests ADD COLUMN policy TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE limit_requests DROP COLUMN policy;
