-- Defaults named as such (issue 45): a bankruptcy or insolvency filing the
-- team has seen for a business puts its accounts in default. Each filing
-- learned is a row of team_defaults, never changed; clearing one is a
-- manager's decision, a row of team_default_clearings beside it. A default
-- is in force while it has no clearing. Conventions as 00001 (ids from
-- the store, times as Unix microseconds).
--
-- team_settings holds the team's settings by name, such as the loss given
-- default ('lgd', a fraction as text); each change is in the audit trail
-- with the value before it.

-- +goose Up
CREATE TABLE team_defaults (
    id          BIGINT NOT NULL PRIMARY KEY,
    service     TEXT   NOT NULL,
    business_id BIGINT NOT NULL,
    kind        TEXT   NOT NULL, -- "Chapter 11 filing"
    title       TEXT   NOT NULL, -- the story's title
    url         TEXT   NOT NULL, -- the story's link, '' when none
    published   BIGINT NOT NULL, -- when the story was published
    source      TEXT   NOT NULL, -- the page that learned it, in words
    source_url  TEXT   NOT NULL, -- and its local path
    learned_by  TEXT   NOT NULL,
    learned_at  BIGINT NOT NULL
);
CREATE INDEX team_defaults_by_business ON team_defaults (service, business_id, published);

CREATE TABLE team_default_clearings (
    default_id BIGINT NOT NULL PRIMARY KEY REFERENCES team_defaults (id),
    service    TEXT   NOT NULL,
    cleared_by TEXT   NOT NULL,
    cleared_at BIGINT NOT NULL,
    note       TEXT   NOT NULL
);

CREATE TABLE team_settings (
    service TEXT   NOT NULL,
    name    TEXT   NOT NULL,
    value   TEXT   NOT NULL,
    set_by  TEXT   NOT NULL,
    set_at  BIGINT NOT NULL,
    PRIMARY KEY (service, name)
);

-- +goose Down
DROP TABLE team_settings;
DROP TABLE team_default_clearings;
DROP TABLE team_defaults;
