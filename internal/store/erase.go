package store

import (
	"context"
	"database/sql"
	"fmt"
)

// tables are the analyst's tables, children first, so DeleteAnalyst can
// delete in an order every foreign key accepts.
var tables = []string{"alerts", "rules", "watches", "notes", "last_seen", "snapshots", "digest_settings"}

// teamTables are the team's tables, not an analyst's: DeleteAnalyst leaves
// them, so the audit trail outlives any one member's workspace. A waiting
// upload (pending_uploads) and the API tokens (api_tokens) are keyed by
// the team and the user's name, and DeleteAnalyst deletes them by those.
var teamTables = []string{"audit_entries", "audit_heads", "audit_refusals", "limit_requests", "request_evidence", "account_reviews",
	"team_accounts", "ledgers", "ledger_lines", "ledger_imports", "limit_input_versions", "team_scores", "team_businesses", "team_risk_months", "team_score_months",
	"team_supplier_categories", "team_versions", "pending_uploads", "team_statement_years", "ledger_versions", "ledger_version_lines", "record_moves",
	"webhook_events", "webhook_endpoints", "webhook_deliveries", "team_defaults", "team_default_clearings", "team_settings",
	"policy_versions", "policy_activations", "team_members", "team_member_changes",
	"applications", "application_links", "application_references", "application_documents", "api_tokens",
	"erp_exports", "erp_export_lines", "erp_sent", "name_lookups", "team_changes"}

// DeleteAnalyst deletes everything the analyst has stored, in one
// transaction: afterwards no table holds a row of theirs. Deleting an
// analyst with nothing stored is not an error.
func (s *Store) DeleteAnalyst(ctx context.Context, a Analyst) error {
	// A full disk must not keep the analyst's data (see reserve.go).
	return s.freeing("delete analyst", func() error { return s.deleteAnalyst(ctx, a) })
}

// deleteAnalyst is DeleteAnalyst, one try.
func (s *Store) deleteAnalyst(ctx context.Context, a Analyst) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("delete analyst", err)
	}
	defer tx.Rollback()
	// A file waiting for its import is the analyst's too, kept by name
	// (uploads.go), even for an analyst with no workspace row.
	if _, err := tx.ExecContext(ctx, "DELETE FROM pending_uploads WHERE service = $1 AND user_name = $2", a.Service, a.User); err != nil {
		return wrap("delete analyst", err)
	}
	if err := s.dropTokens(ctx, tx, a); err != nil {
		return wrap("delete analyst", err)
	}
	var id int64
	// Locks the analyst's row on PostgreSQL so that no write of theirs
	// lands between the deletes; a missing row means nothing to delete.
	err = tx.QueryRowContext(ctx, `UPDATE analysts SET written_at = $3 WHERE service = $1 AND user_name = $2 RETURNING id`,
		a.Service, a.User, s.stamp()).Scan(&id)
	if err != nil {
		if err == sql.ErrNoRows {
			return wrap("delete analyst", tx.Commit())
		}
		return wrap("delete analyst", err)
	}
	for _, t := range append(tables, "analysts") {
		col := "analyst_id"
		if t == "analysts" {
			col = "id"
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+t+" WHERE "+col+" = $1", id); err != nil {
			return fmt.Errorf("store: delete analyst: %s: %w", t, err)
		}
	}
	return wrap("delete analyst", tx.Commit())
}
