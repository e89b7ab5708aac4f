-- Pay, DBT and Z″ month by month (issue 45), beside team_risk_months'
-- Risk: what the team knew of each linked business's scores at each
-- month-end, which a credit policy's validation reads. Filled from the
-- score histories pages already receive, bounded like Risk to the span of
-- MaxRiskMonths months per business and score. Conventions as 00001.

-- +goose Up
CREATE TABLE team_score_months (
    service     TEXT             NOT NULL,
    business_id BIGINT           NOT NULL,
    score       TEXT             NOT NULL, -- pay, dbt or z
    month       INTEGER          NOT NULL, -- YYYYMM
    value       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (service, business_id, score, month)
);

-- +goose Down
DROP TABLE team_score_months;
