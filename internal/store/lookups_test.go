package store

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestNameLookupsQueuedAndResolved (issue 43.3): an import audits each link
// the service's search found and queues the names past its budget, once
// each and only for its own lines; the queue lists the oldest not-linked
// accounts; resolving links the one found (audited), leaves the one not
// found not linked (audited), drops accounts linked otherwise, and a name
// resolved twice is settled once.
func TestNameLookupsQueuedAndResolved(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		names := func(acc, name string) LedgerLine { l := line(acc, 0, 100); l.Name = name; return l }
		lines := []LedgerLine{names("Acme", "Acme"), names("Zenith", "Zenith"), names("Orbit", "Orbit"), names("Quill", "Quill")}
		lines[0].BusinessID = 1001 // what the handlers' search found
		rec, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), File: "names.csv", Lines: lines,
			Found: map[string]string{"Acme": "ACME INC"}, Queue: []string{"Zenith", "Orbit", "Quill", "Quill", "Nobody"}})
		must(t, err)
		if !strings.Contains(rec.Summary, "1 linked to the one business of their name") || !strings.Contains(rec.Summary, "3 names queued to be looked up") {
			t.Errorf("summary %q", rec.Summary)
		}
		links := auditOf(t, s, alice.Service, AuditActionLink)
		if len(links) != 1 || links[0].Account != "Acme" || links[0].BusinessID != 1001 || !strings.Contains(links[0].Reason, "Business/Search found one business") ||
			!strings.Contains(links[0].Reason, "ACME INC") {
			t.Errorf("links audited: %+v", links)
		}
		if q := auditOf(t, s, alice.Service, AuditActionLookup); len(q) != 1 || q[0].NewValue != "3 queued" {
			t.Errorf("queue audited: %+v", q)
		}

		queued, n, err := s.QueuedLookups(ctx, bob, 2)
		must(t, err)
		if n != 3 || len(queued) != 2 || queued[0].Name == "" || queued[0].QueuedBy != "alice" || queued[0].ImportID != rec.ID {
			t.Fatalf("queued %d: %+v", n, queued)
		}
		// Orbit is linked by hand meanwhile: it leaves the queue.
		must(t, s.LinkAccountByHand(ctx, bob, "Orbit", 3003, "Orbit Ltd"))
		linked, err := s.ResolveLookups(ctx, bob, []LookupResult{{Account: "Zenith", BusinessID: 2002, BusinessName: "Zenith PLC"}, {Account: "Quill"}})
		must(t, err)
		if linked != 1 {
			t.Errorf("linked %d", linked)
		}
		again, err := s.ResolveLookups(ctx, bob, []LookupResult{{Account: "Zenith", BusinessID: 9009}})
		must(t, err)
		var rows int
		must(t, s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM name_lookups").Scan(&rows))
		if _, n, _ := s.QueuedLookups(ctx, bob, 10); n != 0 || again != 0 || rows != 0 {
			t.Errorf("after resolving, %d wait, %d linked again, %d rows", n, again, rows)
		}
		accts, err := sortedAccounts(s.Accounts(ctx, alice, ""))
		must(t, err)
		got := map[string]int32{}
		for _, a := range accts {
			got[a.Account] = a.BusinessID
		}
		if want := map[string]int32{"Acme": 1001, "Orbit": 3003, "Quill": 0, "Zenith": 2002}; !maps.Equal(got, want) {
			t.Errorf("links %v, want %v", got, want)
		}
		var reasons []string
		for _, e := range auditOf(t, s, alice.Service, AuditActionLink) {
			reasons = append(reasons, e.Account+": "+e.Reason)
		}
		if len(reasons) != 3 || !strings.Contains(reasons[2], "Zenith: queued name looked up") || !strings.Contains(reasons[2], "Zenith PLC") {
			t.Errorf("links audited: %q", reasons)
		}
		lookups := auditOf(t, s, alice.Service, AuditActionLookup)
		if len(lookups) != 2 || lookups[1].Account != "Quill" || lookups[1].NewValue != "not linked" {
			t.Errorf("look-ups audited: %+v", lookups)
		}
		linkedNow, err := s.LinkedAccounts(ctx, alice)
		must(t, err)
		if keys := slices.Sorted(maps.Keys(linkedNow)); !slices.Equal(keys, []string{"Acme", "Orbit", "Zenith"}) {
			t.Errorf("linked accounts %v", keys)
		}
		v, err := s.VerifyAudit(ctx, alice.Service)
		must(t, err)
		if !v.Intact {
			t.Errorf("audit chain: %+v", v)
		}
	})
}

// TestImportResolvesQueuedNames (issue 43.3): an import that looked up
// queued names with what its own left of its searches takes them off the
// queue in its transaction: the one found linked, the other left not
// linked, each audited, and its summary says so.
func TestImportResolvesQueuedNames(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		named := func(acc string) LedgerLine { l := line(acc, 0, 100); l.Name = acc + " Ltd"; return l }
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), File: "names.csv",
			Lines: []LedgerLine{named("Zenith"), named("Quill")}, Queue: []string{"Zenith", "Quill"}})
		must(t, err)
		rec, err := s.ImportLedger(ctx, bob, ImportSpec{AsOf: date("2026-11-30"), File: "next.csv", Update: true,
			Lines:    []LedgerLine{line("Other", 1005, 10)},
			Resolved: []LookupResult{{Account: "Zenith", BusinessID: 2002, BusinessName: "ZENITH LTD"}, {Account: "Quill"}}})
		must(t, err)
		if !strings.Contains(rec.Summary, "2 names queued before looked up: 1 linked to the one business of their name, 1 left not linked") {
			t.Errorf("summary %q", rec.Summary)
		}
		if _, n, err := s.QueuedLookups(ctx, alice, 10); err != nil || n != 0 {
			t.Errorf("%d still queued (%v)", n, err)
		}
		links := auditOf(t, s, alice.Service, AuditActionLink)
		if len(links) != 1 || links[0].Account != "Zenith" || links[0].Actor != "bob" || !strings.Contains(links[0].Reason, "ZENITH LTD") {
			t.Errorf("links audited: %+v", links)
		}
		if l := auditOf(t, s, alice.Service, AuditActionLookup); len(l) != 2 || l[1].Account != "Quill" || l[1].NewValue != "not linked" {
			t.Errorf("look-ups audited: %+v", l)
		}
		if _, err := s.ImportLedger(ctx, bob, ImportSpec{AsOf: date("2026-11-30"), File: "bad.csv", Lines: []LedgerLine{line("Other", 1005, 10)},
			Resolved: []LookupResult{{Account: "Quill", BusinessID: -4}}}); err == nil {
			t.Error("a look-up naming business -4 was taken")
		}
	})
}
