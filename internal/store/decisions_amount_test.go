package store

import (
	"strings"
	"testing"
)

// TestApproveAmount: a manager approves less than asked; the approved
// amount is the limit in force and is read back; more than asked is
// refused with nothing changed; the audit trail names both figures.
func TestApproveAmount(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		withAccounts(t, s)
		ctx := t.Context()
		r, err := s.RequestLimit(ctx, bob, RequestSpec{Account: "A-1", Amount: 50000, Reason: "growth", Authority: 10000})
		must(t, err)
		_, err = s.ApproveAmount(ctx, alice, r.ID, 50000.01, "too much")
		wantInvalid(t, "more than asked", err, "amount")
		_, err = s.ApproveAmount(ctx, alice, r.ID, -5, "negative")
		wantInvalid(t, "a negative amount", err, "amount")
		if back, _ := s.Request(ctx, alice, r.ID); back.Status != StatusPending || back.Approved != nil || limitOf(t, s, "A-1") != 2000 {
			t.Fatalf("after refusals: %+v, limit %v", back, limitOf(t, s, "A-1"))
		}
		got, err := s.ApproveAmount(ctx, alice, r.ID, 30000, "a step up first")
		must(t, err)
		if got.Status != StatusApproved || got.Approved == nil || *got.Approved != 30000 || got.Amount != 50000 {
			t.Fatalf("approved: %+v", got)
		}
		if l := limitOf(t, s, "A-1"); l != 30000 {
			t.Errorf("limit in force = %v, want 30000", l)
		}
		if back, _ := s.Request(ctx, carol, r.ID); back.Approved == nil || *back.Approved != 30000 {
			t.Errorf("read back: %+v", back)
		}
		es := auditOf(t, s, alice.Service, "")
		approve, limit := es[len(es)-2], es[len(es)-1]
		if approve.Action != AuditActionApprove || !strings.Contains(approve.Reason, "for 50000, approved 30000: a step up first") {
			t.Errorf("approval logged as %+v", approve)
		}
		if limit.OldValue != "2000" || limit.NewValue != "30000" || !strings.Contains(limit.Reason, "30000 of 50000 asked") {
			t.Errorf("limit logged as %+v", limit)
		}
		// Decide approves the amount asked; a request approved at once
		// was approved for what it asked.
		full, err := s.RequestLimit(ctx, bob, RequestSpec{Account: "A-2", Amount: 60000, Reason: "x", Authority: 0})
		must(t, err)
		full, err = s.Decide(ctx, alice, full.ID, Approve, "fine")
		must(t, err)
		if full.Approved == nil || *full.Approved != 60000 || limitOf(t, s, "A-2") != 60000 {
			t.Errorf("Decide approved %+v", full)
		}
		at, err := s.RequestLimit(ctx, bob, RequestSpec{Account: "A-2", Amount: 500, Reason: "x", Authority: 1000})
		must(t, err)
		if at.Approved == nil || *at.Approved != 500 {
			t.Errorf("approved at once: %+v", at)
		}
	})
}
