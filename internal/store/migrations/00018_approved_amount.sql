-- A manager may approve less than was asked (issue 48): the approved
-- amount is kept apart from the amount asked, and is what became the
-- account's limit in force. NULL while a request waits or when it was
-- declined or withdrawn; every approval before this migration approved
-- the amount asked, so it is that.

-- +goose Up
ALTER TABLE limit_requests ADD COLUMN approved_amount DOUBLE PRECISION;
UPDATE limit_requests SET approved_amount = amount WHERE status = 'approved';

-- +goose Down
ALTER TABLE limit_requests DROP COLUMN approved_amount;
