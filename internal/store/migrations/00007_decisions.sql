-- Credit decisions (issue 27): limit requests, their evidence and their
-- outcome, kept for the team (keyed by the service, as 00002) and never
-- deleted by an analyst's "delete my workspace data". Every change is also
-- appended to the team's audit trail (00003) in the same transaction.
-- Conventions as 00001: ids assigned by the store, times as Unix
-- microseconds, amounts DOUBLE PRECISION as the ledgers keep them.

-- +goose Up
CREATE TABLE limit_requests (
    id             BIGINT           NOT NULL PRIMARY KEY,
    service        TEXT             NOT NULL,
    account        TEXT             NOT NULL,
    business_id    BIGINT           NOT NULL,
    amount         DOUBLE PRECISION NOT NULL,
    old_limit      DOUBLE PRECISION, -- NULL: the account had none
    reason         TEXT             NOT NULL,
    -- The calculator's inputs and result when the request came from it, as
    -- text lines; '' when it did not.
    calculator     TEXT             NOT NULL,
    requested_by   TEXT             NOT NULL,
    requested_at   BIGINT           NOT NULL,
    -- The requester's authority when asking: what decided "at once".
    authority      DOUBLE PRECISION NOT NULL,
    -- pending, approved, declined or withdrawn. Only a pending request
    -- changes, by one conditional UPDATE: two deciders, one winner.
    status         TEXT             NOT NULL,
    decided_by     TEXT             NOT NULL,
    decided_at     BIGINT           NOT NULL,
    decision_note  TEXT             NOT NULL
);
CREATE INDEX limit_requests_by_status ON limit_requests (service, status, requested_at);
CREATE INDEX limit_requests_by_requester ON limit_requests (service, requested_by, requested_at);

-- The dated copies a request keeps as its evidence: the service data of
-- the report's tabs (overview, payments) as they were when it was made.
CREATE TABLE request_evidence (
    request_id BIGINT NOT NULL REFERENCES limit_requests (id),
    tab        TEXT   NOT NULL,
    fetched_at BIGINT NOT NULL,
    data       TEXT   NOT NULL,
    PRIMARY KEY (request_id, tab)
);

-- Every review of an account, kept: the schedule reads the latest. band
-- and over_90 are the Risk band (0 none) and the 91+ days share when
-- reviewed, so only a change since then brings the next review forward.
CREATE TABLE account_reviews (
    id          BIGINT           NOT NULL PRIMARY KEY,
    service     TEXT             NOT NULL,
    account     TEXT             NOT NULL,
    reviewed_at BIGINT           NOT NULL,
    reviewed_by TEXT             NOT NULL,
    outcome     TEXT             NOT NULL, -- keep, reduce, hold or increase
    note        TEXT             NOT NULL,
    band        INTEGER          NOT NULL,
    over_90     DOUBLE PRECISION NOT NULL
);
CREATE INDEX account_reviews_by_account ON account_reviews (service, account, reviewed_at);

-- +goose Down
DROP TABLE account_reviews;
DROP TABLE request_evidence;
DROP TABLE limit_requests;
