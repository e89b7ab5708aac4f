package store

import (
	"testing"
)

// TestERPExports: the over-limit threshold defaults, is set within bounds
// and audited with the value before; an export records its lines and what
// the ERP now holds of each (a limit kept when the line sent none), is
// listed and audited once, and its lines read back as sent; lines that do
// not fit their hold and an empty export are refused; another team sees
// none of it.
func TestERPExports(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		if v, err := s.ERPThreshold(ctx, alice); err != nil || v != DefaultERPThreshold {
			t.Fatalf("threshold before any is set: %v, %v", v, err)
		}
		must(t, s.SetERPThreshold(ctx, alice, 25))
		wantInvalid(t, "a threshold of -1 %", s.SetERPThreshold(ctx, alice, -1), "threshold")
		wantInvalid(t, "a threshold past the bound", s.SetERPThreshold(ctx, alice, MaxERPThreshold+1), "threshold")
		if v, err := s.ERPThreshold(ctx, bob); err != nil || v != 25 {
			t.Errorf("threshold as bob reads it: %v, %v", v, err)
		}
		if es := auditOf(t, s, alice.Service, AuditActionSetting); len(es) != 1 || es[0].Actor != "alice" ||
			es[0].OldValue != "over-limit hold threshold 10 %" || es[0].NewValue != "over-limit hold threshold 25 %" {
			t.Errorf("threshold logged = %+v", es)
		}

		l := func(v float64) *float64 { return &v }
		first := []ERPLine{
			{Account: "A-1", Name: "Acme", Limit: l(5000), LimitChanged: true},
			{Account: "B-2", Name: "Bolt", Limit: l(800), LimitChanged: true, Held: true, Action: ERPHold, Reasons: "default; over-limit"},
		}
		_, err := s.RecordERPExport(ctx, alice, "netsuite", nil)
		wantInvalid(t, "an empty export", err, "lines")
		_, err = s.RecordERPExport(ctx, alice, "net suite", first)
		wantInvalid(t, "a system with a space", err, "system")
		_, err = s.RecordERPExport(ctx, alice, "netsuite", []ERPLine{{Account: "C-3", Name: "x", Action: ERPRelease, Held: true}})
		wantInvalid(t, "a release of an account still held", err, "action")
		_, err = s.RecordERPExport(ctx, alice, "netsuite", []ERPLine{{Account: "C-3", Name: "x"}})
		wantInvalid(t, "a line that sends nothing", err, "action")
		_, err = s.RecordERPExport(ctx, alice, "netsuite", append(first, first[0]))
		wantInvalid(t, "an account twice", err, "lines")

		e1, err := s.RecordERPExport(ctx, alice, "netsuite", first)
		must(t, err)
		if e1.Lines != 2 || e1.Limits != 2 || e1.Holds != 1 || e1.Releases != 0 || e1.By != "alice" || e1.At.IsZero() {
			t.Errorf("first export = %+v", e1)
		}
		// The second sends B-2's release alone: its limit stays as sent.
		e2, err := s.RecordERPExport(ctx, bob, "generic", []ERPLine{
			{Account: "B-2", Name: "Bolt", Limit: l(800), Previous: l(800), Action: ERPRelease},
			{Account: "C-3", Name: "Cog", Limit: l(100), LimitChanged: true},
		})
		must(t, err)
		sent, err := s.ERPSentState(ctx, alice)
		must(t, err)
		if len(sent) != 3 || *sent["A-1"].Limit != 5000 || sent["A-1"].Held || *sent["B-2"].Limit != 800 || sent["B-2"].Held || *sent["C-3"].Limit != 100 {
			t.Errorf("sent = %+v", sent)
		}
		list, err := s.ERPExports(ctx, alice)
		must(t, err)
		if len(list) != 2 || list[0].ID != e2.ID || list[1].ID != e1.ID || list[0].System != "generic" || list[0].By != "bob" || list[0].Releases != 1 {
			t.Errorf("exports = %+v", list)
		}
		got, lines, err := s.ERPExportLines(ctx, alice, e1.ID)
		must(t, err)
		if got.ID != e1.ID || len(lines) != 2 || lines[1].Account != "B-2" || !lines[1].Held || lines[1].Action != ERPHold ||
			lines[1].Reasons != "default; over-limit" || *lines[1].Limit != 800 || lines[0].Held || lines[0].Previous != nil {
			t.Errorf("export %d's lines = %+v", e1.ID, lines)
		}
		if es := auditOf(t, s, alice.Service, AuditActionERPExport); len(es) != 2 || es[0].Actor != "alice" ||
			es[0].NewValue != "netsuite: 2 accounts (2 limits, 1 holds, 0 releases)" || es[1].Actor != "bob" {
			t.Errorf("exports logged = %+v", es)
		}

		// Another team: nothing of it.
		if _, _, err := s.ERPExportLines(ctx, aliceElse, e1.ID); err != ErrNotFound {
			t.Errorf("another team's export: %v", err)
		}
		if list, err := s.ERPExports(ctx, aliceElse); err != nil || len(list) != 0 {
			t.Errorf("another team's list: %d, %v", len(list), err)
		}
		if sent, err := s.ERPSentState(ctx, aliceElse); err != nil || len(sent) != 0 {
			t.Errorf("another team's sent: %d, %v", len(sent), err)
		}
		if v, err := s.ERPThreshold(ctx, aliceElse); err != nil || v != DefaultERPThreshold {
			t.Errorf("another team's threshold: %v, %v", v, err)
		}
	})
}
