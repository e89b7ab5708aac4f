-- Credit applications from new customers (issue 44). An application is
-- one invitation (or one use of the team's public link), its answers as
-- the applicant typed them (a JSON document, kept as a draft until it is
-- submitted and never changed after), its documents, its references and
-- the team's match, decision and outcome mail. Conventions as 00001: ids
-- assigned by the store, times as Unix microseconds (0: not yet), amounts
-- DOUBLE PRECISION, files as BYTEA (a BLOB on SQLite).

-- +goose Up
CREATE TABLE applications (
    id             BIGINT           NOT NULL PRIMARY KEY,
    service        TEXT             NOT NULL,
    -- The team's own running number: the account's key unless the
    -- decider gives another.
    number         BIGINT           NOT NULL,
    -- invitation or public (the team's public link).
    source         TEXT             NOT NULL,
    -- A random part of the signed link: a new link means a new nonce.
    nonce          TEXT             NOT NULL,
    company        TEXT             NOT NULL,
    email          TEXT             NOT NULL,
    requested      DOUBLE PRECISION, -- the invitation's amount; NULL: none
    -- invited, draft, submitted, waiting (a limit request for four eyes),
    -- approved, declined or revoked.
    status         TEXT             NOT NULL,
    answers        TEXT             NOT NULL,
    saves          BIGINT           NOT NULL,
    created_by     TEXT             NOT NULL,
    created_at     BIGINT           NOT NULL,
    expires_at     BIGINT           NOT NULL,
    updated_at     BIGINT           NOT NULL,
    submitted_at   BIGINT           NOT NULL,
    submitted_from TEXT             NOT NULL,
    signed_sha256  TEXT             NOT NULL,
    business_id    BIGINT           NOT NULL,
    matched_by     TEXT             NOT NULL,
    report_at      BIGINT           NOT NULL,
    report_by      TEXT             NOT NULL,
    request_id     BIGINT           NOT NULL,
    account        TEXT             NOT NULL,
    decided_by     TEXT             NOT NULL,
    decided_at     BIGINT           NOT NULL,
    decided_amount DOUBLE PRECISION,
    decision_note  TEXT             NOT NULL,
    notified_at    BIGINT           NOT NULL,
    UNIQUE (service, number)
);
CREATE INDEX applications_by_status ON applications (service, status, created_at);
CREATE INDEX applications_by_request ON applications (request_id);

-- The files an applicant sent: PDF, PNG or JPEG by their content, kept
-- here and shown to the team only.
CREATE TABLE application_documents (
    application_id BIGINT NOT NULL REFERENCES applications (id),
    n              BIGINT NOT NULL,
    name           TEXT   NOT NULL,
    content_type   TEXT   NOT NULL,
    size           BIGINT NOT NULL,
    sha256         TEXT   NOT NULL,
    data           BYTEA  NOT NULL,
    added_at       BIGINT NOT NULL,
    PRIMARY KEY (application_id, n)
);

-- The trade and bank references of a submitted application, each asked
-- by a one-time link and reminded by the job queue until it answers or
-- its link expires.
CREATE TABLE application_references (
    id             BIGINT NOT NULL PRIMARY KEY,
    application_id BIGINT NOT NULL REFERENCES applications (id),
    service        TEXT   NOT NULL,
    kind           TEXT   NOT NULL, -- trade or bank
    position       BIGINT NOT NULL,
    name           TEXT   NOT NULL,
    contact        TEXT   NOT NULL,
    email          TEXT   NOT NULL,
    nonce          TEXT   NOT NULL,
    asked_at       BIGINT NOT NULL,
    expires_at     BIGINT NOT NULL,
    reminders      BIGINT NOT NULL,
    answered_at    BIGINT NOT NULL,
    answer         TEXT   NOT NULL,
    answered_from  TEXT   NOT NULL
);
CREATE INDEX application_references_by_application ON application_references (application_id, position);

-- The team's one public application link, when switched on.
CREATE TABLE application_links (
    service    TEXT   NOT NULL PRIMARY KEY,
    nonce      TEXT   NOT NULL,
    enabled    BIGINT NOT NULL,
    changed_by TEXT   NOT NULL,
    changed_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE application_links;
DROP TABLE application_references;
DROP TABLE application_documents;
DROP TABLE applications;
