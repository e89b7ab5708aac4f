-- Webhooks (issue 46): the team's events, written in the transaction of
-- the change they tell of (an outbox, so no event is lost on a crash and
-- none is sent for a change that rolled back); the endpoints a manager
-- registered; one delivery per event and endpoint, its log.
--
-- webhook_events.dispatched_at is 0 until the dispatcher has made the
-- event's deliveries; body is the JSON payload sent, fixed when the change
-- commits, so a retry or a replay sends the same bytes. Endpoints are
-- never deleted while their deliveries are kept: removed_at marks one
-- removed. events is the comma-framed list of event types (",a,b,").
-- A delivery's queued_at is 0 until its job is on the queue; round counts
-- replays (the job's unique key), attempts every try.

-- +goose Up
CREATE TABLE webhook_events (
    id            BIGINT NOT NULL PRIMARY KEY,
    service       TEXT   NOT NULL,
    type          TEXT   NOT NULL,
    body          TEXT   NOT NULL,
    created_at    BIGINT NOT NULL,
    dispatched_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX webhook_events_waiting ON webhook_events (dispatched_at, created_at);

CREATE TABLE webhook_endpoints (
    id         BIGINT NOT NULL PRIMARY KEY,
    service    TEXT   NOT NULL,
    url        TEXT   NOT NULL,
    events     TEXT   NOT NULL,
    secret     TEXT   NOT NULL,
    created_at BIGINT NOT NULL,
    created_by TEXT   NOT NULL,
    removed_at BIGINT NOT NULL DEFAULT 0,
    removed_by TEXT   NOT NULL DEFAULT ''
);
CREATE INDEX webhook_endpoints_team ON webhook_endpoints (service, removed_at);

CREATE TABLE webhook_deliveries (
    id              BIGINT  NOT NULL PRIMARY KEY,
    service         TEXT    NOT NULL,
    event_id        BIGINT  NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    endpoint_id     BIGINT  NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    status          TEXT    NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    response_code   INTEGER NOT NULL DEFAULT 0,
    error           TEXT    NOT NULL DEFAULT '',
    round           INTEGER NOT NULL DEFAULT 0,
    created_at      BIGINT  NOT NULL,
    queued_at       BIGINT  NOT NULL DEFAULT 0,
    last_attempt_at BIGINT  NOT NULL DEFAULT 0,
    delivered_at    BIGINT  NOT NULL DEFAULT 0,
    UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (service, created_at);
CREATE INDEX webhook_deliveries_unqueued ON webhook_deliveries (queued_at, created_at);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
DROP TABLE webhook_events;
