package store

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestSnapshots: a copy keeps its data verbatim with the fetch time, the
// business and the tab; the list leaves the data out.
func TestSnapshots(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		fetched := time.Date(2025, 2, 27, 14, 3, 9, 123456000, time.FixedZone("CET", 3600))
		data := json.RawMessage(`{"History":[{"Year":2025,"Month":1,"RiskScore":4}],"Name":"<b>Harbor</b> \u0026 Co"}`)
		first, err := s.SaveSnapshot(ctx, alice, SnapshotSpec{BusinessID: 1001, BusinessName: "Harbor Freight", Tab: "overview", Fetched: fetched, Data: data})
		must(t, err)
		second, err := s.SaveSnapshot(ctx, alice, SnapshotSpec{BusinessID: 1002, Tab: "payments", Fetched: fetched, Data: json.RawMessage(`[]`)})
		must(t, err)

		list, err := s.Snapshots(ctx, alice)
		must(t, err)
		if len(list) != 2 || list[0] != second || list[1] != first {
			t.Fatalf("Snapshots = %+v, want %+v then %+v", list, second, first)
		}
		got, err := s.Snapshot(ctx, alice, first.ID)
		must(t, err)
		if string(got.Data) != string(data) || got.SnapshotInfo != first || !got.Fetched.Equal(fetched) || got.Size != len(data) {
			t.Errorf("Snapshot = %+v, %s; want %+v with the data verbatim", got.SnapshotInfo, got.Data, first)
		}

		must(t, s.DeleteSnapshot(ctx, alice, first.ID))
		wantErr(t, "delete twice", s.DeleteSnapshot(ctx, alice, first.ID), ErrNotFound)
		_, err = s.Snapshot(ctx, alice, first.ID)
		wantErr(t, "read deleted", err, ErrNotFound)

		ok := SnapshotSpec{BusinessID: 1001, Tab: "financials", Fetched: fetched, Data: data}
		for field, spec := range map[string]func(SnapshotSpec) SnapshotSpec{
			"data":     func(s SnapshotSpec) SnapshotSpec { s.Data = json.RawMessage(`{"a":`); return s },
			"tab":      func(s SnapshotSpec) SnapshotSpec { s.Tab = "../etc"; return s },
			"fetched":  func(s SnapshotSpec) SnapshotSpec { s.Fetched = time.Time{}; return s },
			"business": func(s SnapshotSpec) SnapshotSpec { s.BusinessID = 0; return s },
		} {
			_, err := s.SaveSnapshot(ctx, alice, spec(ok))
			wantInvalid(t, "SaveSnapshot", err, field)
		}
		big := `"` + strings.Repeat("x", MaxSnapshotBytes) + `"`
		_, err = s.SaveSnapshot(ctx, alice, SnapshotSpec{BusinessID: 1001, Tab: "overview", Fetched: fetched, Data: json.RawMessage(big)})
		wantInvalid(t, "too big", err, "data")
		_, err = s.SaveSnapshot(ctx, alice, SnapshotSpec{BusinessID: 1001, Tab: "overview", Fetched: fetched, Data: json.RawMessage("\"\xff\"")})
		wantInvalid(t, "broken UTF-8", err, "data")
		if n := rowsOf(t, s, alice, "snapshots"); n != 1 {
			t.Errorf("%d snapshots, want 1", n)
		}
	})
}

// TestSnapshotsFull: the 500th copy is kept, the 501st refused until one
// is deleted.
func TestSnapshotsFull(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		fill(t, s, alice, "snapshots", MaxSnapshots-1)
		spec := SnapshotSpec{BusinessID: 1001, Tab: "overview", Fetched: time.Now(), Data: json.RawMessage(`{}`)}
		last, err := s.SaveSnapshot(ctx, alice, spec)
		must(t, err)
		_, err = s.SaveSnapshot(ctx, alice, spec)
		wantErr(t, "snapshot past the bound", err, ErrSnapshotsFull)
		must(t, s.DeleteSnapshot(ctx, alice, last.ID))
		_, err = s.SaveSnapshot(ctx, alice, spec)
		must(t, err)
	})
}

// TestSnapshotTabs: a copy of each report tab keeps its tab in the list
// and in the copy, beside overview copies saved before any other tab could
// be kept; another analyst sees none of them.
func TestSnapshotTabs(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		fetched := time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)
		tabs := []string{"overview", "payments", "financials", "officers"}
		ids := map[int64]string{}
		for _, tab := range tabs {
			data := json.RawMessage(`{"naics":[],"tab":"` + tab + `"}`)
			info, err := s.SaveSnapshot(ctx, alice, SnapshotSpec{BusinessID: 1001, BusinessName: "Westbridge", Tab: tab, Fetched: fetched, Data: data})
			must(t, err)
			ids[info.ID] = tab
		}
		list, err := s.Snapshots(ctx, alice)
		must(t, err)
		var listed []string
		for _, i := range list {
			listed = append(listed, i.Tab)
			if ids[i.ID] != i.Tab {
				t.Errorf("snapshot %d listed with tab %q, saved with %q", i.ID, i.Tab, ids[i.ID])
			}
		}
		if got := strings.Join(listed, ","); got != "officers,financials,payments,overview" {
			t.Errorf("tabs listed newest first = %q", got)
		}
		for id, tab := range ids {
			got, err := s.Snapshot(ctx, alice, id)
			must(t, err)
			if got.Tab != tab || !strings.Contains(string(got.Data), `"tab":"`+tab+`"`) || !got.Fetched.Equal(fetched) {
				t.Errorf("snapshot %d = tab %q, data %s, fetched %v; want tab %q", id, got.Tab, got.Data, got.Fetched, tab)
			}
			_, err = s.Snapshot(ctx, bob, id)
			wantErr(t, "another analyst's copy", err, ErrNotFound)
		}
		for _, bad := range []string{"", "Payments", "payments tab", strings.Repeat("x", 33)} {
			_, err := s.SaveSnapshot(ctx, alice, SnapshotSpec{BusinessID: 1001, Tab: bad, Fetched: fetched, Data: json.RawMessage(`{}`)})
			wantInvalid(t, "tab "+bad, err, "tab")
		}
		if n := rowsOf(t, s, alice, "snapshots"); n != len(tabs) {
			t.Errorf("%d snapshots stored, want %d", n, len(tabs))
		}
	})
}
