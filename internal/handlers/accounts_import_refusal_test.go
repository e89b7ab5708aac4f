package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestImportRefusedByTheStore: a file the preview accepts but the store
// refuses (a customer id of 40 characters the preview counts, but of more
// than the 64 bytes the store keeps) answers 422 with the store's
// reason and the preview built again from the waiting file, whose text the
// import had let go of; nothing is written and the file still waits.
func TestImportRefusedByTheStore(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInAccounts(t, app, "demo")
		data := "account,business_id,balance,customer_id\nA-1,1001,100,C-1\nA-2,1002,200," + strings.Repeat("é", 40) + "\n"
		p := u.upload("aging.csv", []byte(data), "2026-09-30")
		if p.Status != http.StatusOK {
			t.Fatalf("preview: status = %d; %.500s", p.Status, p.Body)
		}
		r := u.Submit(p, "form.import-confirm")
		if r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("import: status = %d, want 422; %.500s", r.Status, r.Body)
		}
		if msg := r.Text("#file-error"); !strings.Contains(msg, "A-2") || !strings.Contains(msg, "customer") {
			t.Errorf("message = %q, want the store's reason naming account A-2's customer id", msg)
		}
		if head := r.Text("main"); !strings.Contains(head, "A-1") || !strings.Contains(head, "2 rows can be imported") {
			t.Errorf("the preview is not shown again: %.600s", head)
		}
		if dates, err := app.Store.LedgerDates(t.Context(), team); err != nil || len(dates) != 0 {
			t.Fatalf("after the refusal the team has ledgers %v (%v)", dates, err)
		}
		// The file still waits: the same form imports once it is fixed
		// elsewhere; here, importing again meets the same refusal.
		if again := u.Submit(r, "form.import-confirm"); again.Status != http.StatusUnprocessableEntity {
			t.Errorf("second try: status = %d, want 422 (the file still waits)", again.Status)
		}
	})
}
