package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestReviewHoldFeedsTheWorklist: a review needs a note whatever its
// outcome (422 keeping the outcome chosen); a "hold" puts the account on
// the worklist as "Hold advised" with who held it and the note, though
// nothing else about it asks for a hold; a later "keep" lifts it.
func TestReviewHoldFeedsTheWorklist(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	dev := signInAccounts(t, app, "developer")
	importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	bare := dev.post("/accounts/A-2/review", "outcome", "hold", "note", "  ")
	if bare.Status != http.StatusUnprocessableEntity || bare.Text("#note-error") == "" {
		t.Fatalf("a review without a note: %d, %q", bare.Status, bare.Text("#note-error"))
	}
	if v, _ := bare.Doc.Find("#outcome option[selected]").Attr("value"); v != "hold" {
		t.Errorf("the outcome chosen is not kept: %q", v)
	}
	holdLine := func() string {
		return dev.Get("/worklist?reason=hold-advised").Doc.Find(`table.worklist tbody tr[data-account="A-2"]`).Text()
	}
	if line := holdLine(); line != "" {
		t.Fatalf("A-2 held before any review: %q", line)
	}
	mustRedirect(t, "hold", dev.post("/accounts/A-2/review", "outcome", "hold", "note", "Cheques bouncing since October"))
	if line := holdLine(); !strings.Contains(line, "Hold advised") || !strings.Contains(line, "held at review by developer") ||
		!strings.Contains(line, "Cheques bouncing since October") {
		t.Errorf("A-2 on the worklist after a hold = %q, want the hold with its note", line)
	}
	mustRedirect(t, "keep", dev.post("/accounts/A-2/review", "outcome", "keep", "note", "Paid up"))
	if line := holdLine(); line != "" {
		t.Errorf("A-2 still held after a keep: %q", line)
	}
}
