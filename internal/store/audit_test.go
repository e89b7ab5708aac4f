package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"creditdash/internal/store/storetest"
)

// team is the team of the audit tests: alice's and bob's service.
var auditTeam = alice.Service

// appendN appends n entries by actor with reasons "r1", "r2"...
func appendN(t testing.TB, s *Store, auditTeam, actor string, n int) []AuditEntry {
	t.Helper()
	out := make([]AuditEntry, 0, n)
	for i := range n {
		e, err := s.AppendAudit(t.Context(), auditTeam, AuditChange{Actor: actor, Action: "limit", Account: fmt.Sprintf("ACC-%d", i%3),
			BusinessID: int32(1001 + i%2), OldValue: "1000", NewValue: "2000", Reason: fmt.Sprintf("r%d", i+1)})
		must(t, err)
		out = append(out, e)
	}
	return out
}

func TestAuditAppendAndRead(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		got := appendN(t, s, auditTeam, "alice", 5)
		appendN(t, s, auditTeam+"/", "bob", 2) // the same team: trailing slashes cut
		appendN(t, s, "https://other.example", "alice", 3)
		prev := GenesisHash
		for i, e := range got {
			if e.Seq != int64(i+1) || e.PrevHash != prev || e.Hash != AuditHash(prev, e) || len(e.Hash) != 64 {
				t.Fatalf("entry %d = %+v: not chained after %s", i+1, e, prev)
			}
			if i > 0 && e.At.Before(got[i-1].At) {
				t.Errorf("entry %d is older than the one before", e.Seq)
			}
			prev = e.Hash
		}

		all, more, err := s.AuditEntries(ctx, auditTeam, AuditFilter{}, AuditPage{})
		must(t, err)
		if len(all) != 7 || more || all[0].Seq != 7 || all[6].Seq != 1 || all[0].Actor != "bob" {
			t.Fatalf("all entries: %d, more %v, first %+v", len(all), more, all[0])
		}
		if all[6] != got[0] {
			t.Errorf("read back %+v, want %+v", all[6], got[0])
		}
		page, more, err := s.AuditEntries(ctx, auditTeam, AuditFilter{}, AuditPage{Size: 3})
		must(t, err)
		if len(page) != 3 || !more || page[2].Seq != 5 {
			t.Fatalf("first page of 3: %d entries, more %v", len(page), more)
		}
		page, more, err = s.AuditEntries(ctx, auditTeam, AuditFilter{}, AuditPage{Before: 5, Size: 3})
		must(t, err)
		if len(page) != 3 || !more || page[0].Seq != 4 || page[2].Seq != 2 {
			t.Fatalf("second page of 3: %v, more %v", seqs(page), more)
		}
		page, more, _ = s.AuditEntries(ctx, auditTeam, AuditFilter{}, AuditPage{Before: 2, Size: 3})
		if len(page) != 1 || more {
			t.Fatalf("last page: %v, more %v", seqs(page), more)
		}

		for _, c := range []struct {
			f    AuditFilter
			want string
		}{
			{AuditFilter{Actor: "bob"}, "[7 6]"},
			{AuditFilter{Actor: "carol"}, "[]"},
			{AuditFilter{Action: "limit", Account: "ACC-0"}, "[6 4 1]"},
			{AuditFilter{Action: "role"}, "[]"},
			{AuditFilter{From: got[1].At, To: got[3].At}, "[3 2]"},
			{AuditFilter{From: got[4].At}, "[7 6 5]"},
		} {
			es, _, err := s.AuditEntries(ctx, auditTeam, c.f, AuditPage{})
			must(t, err)
			if fmt.Sprint(seqs(es)) != c.want {
				t.Errorf("filter %+v: %v, want %s", c.f, seqs(es), c.want)
			}
		}

		var log []int64
		for e, err := range s.AuditLog(ctx, auditTeam, AuditFilter{Actor: "alice"}) {
			must(t, err)
			log = append(log, e.Seq)
		}
		if fmt.Sprint(log) != "[1 2 3 4 5]" {
			t.Errorf("AuditLog(alice) = %v, want oldest first", log)
		}
		v, err := s.VerifyAudit(ctx, "https://other.example")
		must(t, err)
		if !v.Intact || v.Entries != 3 {
			t.Errorf("the other team's log: %+v", v)
		}
		v, err = s.VerifyAudit(ctx, "https://nobody.example")
		must(t, err)
		if !v.Intact || v.Entries != 0 {
			t.Errorf("a team without a log: %+v", v)
		}
	})
}

func seqs(es []AuditEntry) []int64 {
	out := []int64{}
	for _, e := range es {
		out = append(out, e.Seq)
	}
	return out
}

func TestAuditRefusesBadEntries(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ok := AuditChange{Actor: "alice", Action: "limit"}
		for _, c := range []struct {
			auditTeam string
			c         func(AuditChange) AuditChange
			field     string
		}{
			{"", func(c AuditChange) AuditChange { return c }, "team"},
			{auditTeam, func(c AuditChange) AuditChange { c.Actor = ""; return c }, "actor"},
			{auditTeam, func(c AuditChange) AuditChange { c.Action = "Limit Change"; return c }, "action"},
			{auditTeam, func(c AuditChange) AuditChange { c.Action = ""; return c }, "action"},
			{auditTeam, func(c AuditChange) AuditChange { c.Account = strings.Repeat("a", 257); return c }, "account"},
			{auditTeam, func(c AuditChange) AuditChange { c.BusinessID = -1; return c }, "business"},
			{auditTeam, func(c AuditChange) AuditChange { c.NewValue = strings.Repeat("é", MaxAuditValueLen+1); return c }, "value"},
			{auditTeam, func(c AuditChange) AuditChange { c.Reason = strings.Repeat("x", MaxAuditReasonLen+1); return c }, "reason"},
			{auditTeam, func(c AuditChange) AuditChange { c.Reason = "a\xffb"; return c }, "text"},
		} {
			_, err := s.AppendAudit(t.Context(), c.auditTeam, c.c(ok))
			wantInvalid(t, c.field, err, c.field)
		}
		// At the bounds it is kept.
		c := ok
		c.Reason, c.NewValue = strings.Repeat("é", MaxAuditReasonLen), strings.Repeat("x", MaxAuditValueLen)
		_, err := s.AppendAudit(t.Context(), auditTeam, c)
		must(t, err)
		if v, _ := s.VerifyAudit(t.Context(), auditTeam); !v.Intact || v.Entries != 1 {
			t.Errorf("after refusals: %+v, want one intact entry", v)
		}
	})
}

// Deleting an analyst's workspace leaves the team's log whole.
func TestAuditSurvivesWorkspaceDeletion(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		_, err := s.AddNote(t.Context(), alice, 1001, "note")
		must(t, err)
		appendN(t, s, auditTeam, alice.User, 3)
		must(t, s.DeleteAnalyst(t.Context(), alice))
		v, err := s.VerifyAudit(t.Context(), auditTeam)
		must(t, err)
		if !v.Intact || v.Entries != 3 {
			t.Errorf("after deleting alice's workspace: %+v, want 3 intact entries", v)
		}
	})
}

// Editing the database by hand is found, and the first entry that no longer
// matches is named: a changed field, a forged hash (the next entry then
// breaks), a removed entry, the newest entries removed.
func TestAuditVerifyFindsTampering(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		exec := func(q string, args ...any) {
			t.Helper()
			_, err := s.w.ExecContext(ctx, q, args...)
			must(t, err)
		}
		check := func(what string, wantBroken int64, wantProblem string) {
			t.Helper()
			v, err := s.VerifyAudit(ctx, auditTeam)
			must(t, err)
			if v.Intact || v.Broken != wantBroken || !strings.Contains(v.Problem, wantProblem) {
				t.Errorf("%s: verdict %+v, want entry %d named: %q", what, v, wantBroken, wantProblem)
			}
		}
		es := appendN(t, s, auditTeam, "alice", 6)
		if v, _ := s.VerifyAudit(ctx, auditTeam); !v.Intact || v.Entries != 6 {
			t.Fatalf("untouched: %+v", v)
		}

		exec("UPDATE audit_entries SET new_value = '9000000' WHERE team = $1 AND seq = 3", auditTeam)
		check("a value changed", 3, "entry 3 does not match its hash")
		// The forger recomputes entry 3's hash: entry 4 no longer follows.
		e3 := es[2]
		e3.NewValue = "9000000"
		exec("UPDATE audit_entries SET hash = $2 WHERE team = $1 AND seq = 3", auditTeam, AuditHash(e3.PrevHash, e3))
		check("a forged hash", 4, "entry 4 does not follow entry 3")
		exec("UPDATE audit_entries SET new_value = $2, hash = $3 WHERE team = $1 AND seq = 3", auditTeam, es[2].NewValue, es[2].Hash)
		if v, _ := s.VerifyAudit(ctx, auditTeam); !v.Intact {
			t.Fatalf("restored: %+v", v)
		}

		exec("UPDATE audit_entries SET at = at + 1 WHERE team = $1 AND seq = 1", auditTeam)
		check("a time moved", 1, "entry 1 does not match")
		exec("UPDATE audit_entries SET at = at - 1 WHERE team = $1 AND seq = 1", auditTeam)

		exec("DELETE FROM audit_entries WHERE team = $1 AND seq = 2", auditTeam)
		check("an entry removed", 2, "entry 2 is missing")
		insertEntry(t, s, auditTeam, es[1])

		exec("DELETE FROM audit_entries WHERE team = $1 AND seq >= 5", auditTeam)
		check("the newest removed", 5, "entries 5 to 6 are missing")
	})
}

// insertEntry writes e as it was, by hand.
func insertEntry(t testing.TB, s *Store, auditTeam string, e AuditEntry) {
	t.Helper()
	_, err := s.w.ExecContext(t.Context(), `INSERT INTO audit_entries (team, `+auditColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, auditTeam, e.Seq, e.At.UnixMicro(), e.Actor, e.Action,
		e.Account, int64(e.BusinessID), e.OldValue, e.NewValue, e.Reason, e.PrevHash, e.Hash)
	must(t, err)
}

// Appends racing from many goroutines, and on PostgreSQL from two stores
// on the same database (two replicas, two pools), form one unbroken chain.
func TestAuditConcurrentAppends(t *testing.T) {
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			stores := replicas(t, e)
			const writers, each = 8, 12
			var wg sync.WaitGroup
			errs := make(chan error, writers*each)
			for w := range writers {
				st := stores[w%len(stores)]
				wg.Go(func() {
					for i := range each {
						_, err := st.AppendAudit(context.Background(), auditTeam, AuditChange{Actor: fmt.Sprintf("w%d", w), Action: "limit", Reason: fmt.Sprint(i)})
						if err != nil {
							errs <- err
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			v, err := stores[0].VerifyAudit(t.Context(), auditTeam)
			must(t, err)
			if !v.Intact || v.Entries != writers*each {
				t.Errorf("after %d racing appends: %+v", writers*each, v)
			}
		})
	}
}

// replicas opens a fresh database of engine e: on PostgreSQL two stores on
// it, as two replicas would; on SQLite one, its only writer.
func replicas(t *testing.T, e Engine) []*Store {
	t.Helper()
	if e == SQLite {
		return []*Store{openTest(t, e, Config{})}
	}
	url := storetest.Database(t)
	return []*Store{openTest(t, e, Config{DatabaseURL: url}), openTest(t, e, Config{DatabaseURL: url})}
}

func TestAuditCSVRecordRoundTrip(t *testing.T) {
	e := AuditEntry{Seq: 12, At: time.Date(2026, 11, 27, 0, 14, 46, 123000, time.UTC), AuditChange: AuditChange{
		Actor: "alice", Action: "limit", Account: "=HYPERLINK(\"x\")", BusinessID: 1001,
		OldValue: "-5", NewValue: "'quoted", Reason: "@sum, \"and\"\nmore"}}
	e.PrevHash = GenesisHash
	e.Hash = AuditHash(e.PrevHash, e)
	row := e.CSVRecord()
	if row[1] != "2026-11-27T00:14:46.000123Z" || row[4] != `'=HYPERLINK("x")` || row[6] != "'-5" || row[7] != "''quoted" || row[8][0] != '\'' {
		t.Errorf("CSVRecord = %q", row)
	}
	back, err := ParseAuditCSVRecord(row)
	must(t, err)
	if back != e || AuditHash(back.PrevHash, back) != e.Hash {
		t.Errorf("round trip: %+v, want %+v", back, e)
	}
	if _, err := ParseAuditCSVRecord(row[:3]); err == nil {
		t.Error("a short row was read")
	}
}

// The canonical encoding is pinned: a change to it would break every
// stored chain, so it must be deliberate (and versioned in auditDomain).
func TestAuditHashIsStable(t *testing.T) {
	e := AuditEntry{Seq: 1, At: time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC),
		AuditChange: AuditChange{Actor: "config", Action: "role", NewValue: "alice=manager:250000", Reason: "r"}}
	var b strings.Builder
	b.WriteString("creditdash-audit-v1\n" + GenesisHash + "\n")
	for _, f := range []string{"1", "2026-01-02T03:04:05.000006Z", "config", "role", "", "", "", "alice=manager:250000", "r"} {
		fmt.Fprintf(&b, "%d:%s\n", len(f), f)
	}
	want := sha256Hex(b.String())
	if got := AuditHash(GenesisHash, e); got != want {
		t.Errorf("AuditHash = %s, want %s (the documented encoding)", got, want)
	}
}

// The store offers no way to change an entry: no method takes a seq to
// write. This keeps the promise checked as the API grows.
func TestAuditHasNoUpdatePath(t *testing.T) {
	for _, q := range []string{"UPDATE audit_entries", "DELETE FROM audit_entries"} {
		if n := countInSources(t, q); n != 0 {
			t.Errorf("%d non-test files of the store run %q", n, q)
		}
	}
}

// sha256Hex is the SHA-256 of s in lowercase hex.
func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// countInSources counts the store's non-test Go files that contain text.
func countInSources(t *testing.T, text string) int {
	t.Helper()
	files, err := filepath.Glob("*.go")
	must(t, err)
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		must(t, err)
		if strings.Contains(string(b), text) {
			n++
		}
	}
	return n
}

// A log longer than one batch is read whole, in order, across the batch
// boundaries, by AuditLog and by verification; entries appended while
// AuditLog runs are left for the next reading.
func TestAuditLogAcrossBatches(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		const n = 2*auditBatch + 7
		fillAudit(t, s, auditTeam, n)
		var count int64
		appended := false
		for e, err := range s.AuditLog(t.Context(), auditTeam, AuditFilter{}) {
			must(t, err)
			if count++; e.Seq != count {
				t.Fatalf("entry %d read as number %d", e.Seq, count)
			}
			if !appended {
				appendN(t, s, auditTeam, "late", 1)
				appended = true
			}
		}
		if count != n {
			t.Errorf("AuditLog read %d entries, want %d", count, n)
		}
		v, err := s.VerifyAudit(t.Context(), auditTeam)
		must(t, err)
		if !v.Intact || v.Entries != n+1 {
			t.Errorf("verdict %+v, want %d intact entries", v, n+1)
		}
	})
}
