package store

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"
)

// workspace is everything an analyst can read back, to compare before
// and after others act.
type workspace struct {
	Watches   []Watch
	Notes     []Note
	Rules     []Rule
	Alerts    []Alert
	Unread    int
	Seen      map[SeenKey]Seen
	Snapshots []SnapshotInfo
	Data      []string
}

// readAll reads an analyst's whole workspace through the API.
func readAll(t *testing.T, s *Store, a Analyst) workspace {
	t.Helper()
	ctx := t.Context()
	var w workspace
	var err error
	w.Watches, err = s.WatchList(ctx, a)
	must(t, err)
	w.Notes, err = s.AllNotes(ctx, a)
	must(t, err)
	w.Rules, err = s.Rules(ctx, a)
	must(t, err)
	w.Alerts, err = s.Alerts(ctx, a, 0)
	must(t, err)
	g, err := s.Glance(ctx, a)
	must(t, err)
	w.Unread = g.Unread
	w.Seen, err = s.LastSeen(ctx, a, []int32{1001, 1002})
	must(t, err)
	w.Snapshots, err = s.Snapshots(ctx, a)
	must(t, err)
	for _, info := range w.Snapshots {
		sn, err := s.Snapshot(ctx, a, info.ID)
		must(t, err)
		w.Data = append(w.Data, string(sn.Data))
	}
	return w
}

// populate gives the analyst a row in every table and returns the ids.
func populate(t *testing.T, s *Store, a Analyst) (note, rule, alert, snapshot int64) {
	t.Helper()
	ctx := t.Context()
	must(t, s.Watch(ctx, a, 1001, "Harbor Freight"))
	n, err := s.AddNote(ctx, a, 1001, "note of "+a.User)
	must(t, err)
	r, err := s.AddRule(ctx, a, RuleSpec{Scope: ScopeBusiness, BusinessID: 1001, Score: ScoreRisk, Condition: Below, Threshold: 5})
	must(t, err)
	_, err = s.RecordAlerts(ctx, a, []Triggered{{RuleID: r.ID, BusinessID: 1001, Year: 2025, Month: 3, New: 2}})
	must(t, err)
	must(t, s.MarkSeen(ctx, a, []Reading{{1001, ScoreRisk, 2}}))
	_, err = s.SaveDigest(ctx, a, "someone@example.com", DigestDaily)
	must(t, err)
	sn, err := s.SaveSnapshot(ctx, a, SnapshotSpec{BusinessID: 1001, Tab: "overview", Fetched: time.Now(), Data: json.RawMessage(`{"of":"` + a.User + `"}`)})
	must(t, err)
	al, err := s.Alerts(ctx, a, 1)
	must(t, err)
	return n.ID, r.ID, al[0].ID, sn.ID
}

// TestIsolation: another analyst of the same service, and the same user
// name on another service, neither see, change nor count alice's rows
// through any method, and alice's rows do not count against their bounds.
func TestIsolation(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		note, rule, alert, snapshot := populate(t, s, alice)
		before := readAll(t, s, alice)
		if len(before.Watches) != 1 || len(before.Notes) != 1 || len(before.Rules) != 1 || len(before.Alerts) != 1 ||
			before.Unread != 1 || len(before.Seen) != 1 || len(before.Snapshots) != 1 {
			t.Fatalf("alice's workspace is not populated: %+v", before)
		}
		for _, other := range []Analyst{bob, aliceElse} {
			t.Run(fmt.Sprint(other), func(t *testing.T) {
				if got := readAll(t, s, other); !reflect.DeepEqual(got, workspace{Seen: map[SeenKey]Seen{}}) {
					t.Errorf("%v sees %+v", other, got)
				}
				if w, _ := s.IsWatched(ctx, other, 1001); w {
					t.Error("IsWatched sees alice's watch")
				}
				if ns, _ := s.Notes(ctx, other, 1001); len(ns) != 0 {
					t.Error("Notes sees alice's note")
				}
				_, err := s.Note(ctx, other, note)
				wantErr(t, "Note", err, ErrNotFound)
				_, err = s.EditNote(ctx, other, note, "mine now")
				wantErr(t, "EditNote", err, ErrNotFound)
				wantErr(t, "DeleteNote", s.DeleteNote(ctx, other, note), ErrNotFound)
				wantErr(t, "DeleteRule", s.DeleteRule(ctx, other, rule), ErrNotFound)
				wantErr(t, "MarkAlertRead", s.MarkAlertRead(ctx, other, alert), ErrNotFound)
				_, err = s.Snapshot(ctx, other, snapshot)
				wantErr(t, "Snapshot", err, ErrNotFound)
				wantErr(t, "DeleteSnapshot", s.DeleteSnapshot(ctx, other, snapshot), ErrNotFound)
				if n, err := s.MarkAllAlertsRead(ctx, other, time.Time{}); err != nil || n != 0 {
					t.Errorf("MarkAllAlertsRead = %d, %v; want 0", n, err)
				}
				if n, err := s.RecordAlerts(ctx, other, []Triggered{{RuleID: rule, BusinessID: 1001, Year: 2025, Month: 4, New: 1}}); err != nil || n != 0 {
					t.Errorf("RecordAlerts on alice's rule = %d, %v; want 0", n, err)
				}
				must(t, s.Unwatch(ctx, other, 1001))
				// Their own rows on the same business, then gone again.
				populate(t, s, other)
				must(t, s.MarkSeen(ctx, other, []Reading{{1001, ScoreRisk, 9}}))
				must(t, s.DeleteAnalyst(ctx, other))
			})
		}
		if after := readAll(t, s, alice); !reflect.DeepEqual(after, before) {
			t.Errorf("alice's workspace changed:\nbefore %+v\nafter  %+v", before, after)
		}
	})
}

// TestDeleteAnalyst: every table is emptied of the analyst's rows in one
// go, the others' rows stay, and the table list covers the whole schema.
func TestDeleteAnalyst(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		populate(t, s, alice)
		populate(t, s, bob)
		for _, table := range tables {
			if rowsOf(t, s, alice, table) == 0 {
				t.Fatalf("populate left %s empty", table)
			}
		}
		bobs := readAll(t, s, bob)
		must(t, s.DeleteAnalyst(ctx, alice))
		must(t, s.DeleteAnalyst(ctx, alice))
		for _, table := range append(slices.Clone(tables), "analysts") {
			var n int
			col := "analyst_id"
			if table == "analysts" {
				col = "id"
			}
			must(t, s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table+" WHERE "+col+" NOT IN (SELECT id FROM analysts WHERE user_name = 'bob')").Scan(&n))
			if n != 0 {
				t.Errorf("%s keeps %d rows of alice", table, n)
			}
		}
		if !reflect.DeepEqual(readAll(t, s, bob), bobs) {
			t.Error("deleting alice changed bob's workspace")
		}

		// Every table of the schema but the bookkeeping ones is in tables
		// or, the team's, in teamTables, so a new table cannot be
		// forgotten by DeleteAnalyst.
		q := "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
		if s.Engine() == Postgres {
			q = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
		}
		rows, err := s.r.QueryContext(ctx, q)
		must(t, err)
		defer rows.Close()
		var schema []string
		for rows.Next() {
			var name string
			must(t, rows.Scan(&name))
			if name != "analysts" && name != "goose_db_version" {
				schema = append(schema, name)
			}
		}
		must(t, rows.Err())
		slices.Sort(schema)
		want := slices.Sorted(slices.Values(append(slices.Clone(tables), teamTables...)))
		if !slices.Equal(schema, want) {
			t.Errorf("schema tables %v, DeleteAnalyst deletes from %v and leaves the team's %v", schema, tables, teamTables)
		}
	})
}

// TestAnalystKey: a trailing slash does not make another analyst, and an
// incomplete key is refused.
func TestAnalystKey(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		must(t, s.Watch(ctx, Analyst{Service: alice.Service + "/", User: alice.User}, 1001, ""))
		if w, _ := s.IsWatched(ctx, alice, 1001); !w {
			t.Error("the service URL with a trailing slash is another analyst")
		}
		for _, a := range []Analyst{{}, {Service: alice.Service}, {User: "alice"}, {Service: "/", User: "alice"}} {
			_, err := s.WatchList(ctx, a)
			wantInvalid(t, fmt.Sprint(a), err, "analyst")
		}
	})
}
