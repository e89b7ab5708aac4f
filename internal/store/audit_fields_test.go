package store

import (
	"database/sql"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// dirtyText holds every kind of character the log must not keep as sent:
// line breaks of three systems, a lone CR, escape, NUL, tab, NEL, the
// line and paragraph separators, and characters that reorder text.
const dirtyText = "x\r\ny\rz\x1b[31m\x00\t\u0085\u2028\u2029\u202eAB\u2066C\u2069\u200f=HYPERLINK(\"u\")"

// linesKept are the fields that may keep line breaks (as LF); every other
// text field is one line.
var linesKept = map[string]bool{"OldValue": true, "NewValue": true, "Reason": true}

// TestEveryAuditFieldCleaned (issue 47.3): whatever reaches the team's log
// (a path, a note, a reason, a name, an owner, a file's name, an account's
// name from a file, a rule's name) reaches it as a field of AuditChange
// through the one statement that writes audit_entries, and each text field
// is cleaned on every way in: one entry, an import's sequence of entries
// and a refusal. A field added to AuditChange without being cleaned, or a
// second statement writing entries, fails here.
func TestEveryAuditFieldCleaned(t *testing.T) {
	if n := countInSources(t, "INSERT INTO audit_entries"); n != 1 {
		t.Fatalf("%d non-test files of the store write audit_entries, want 1 (appendAuditSeq's, which cleans)", n)
	}
	s := openTest(t, SQLite, Config{})
	ctx := t.Context()
	ways := map[string]func(c AuditChange) (AuditEntry, error){
		"one entry": func(c AuditChange) (AuditEntry, error) { return s.AppendAudit(ctx, auditTeam, c) },
		"an import's sequence": func(c AuditChange) (AuditEntry, error) {
			var e AuditEntry
			err := s.auditTx(ctx, "test", func(tx *sql.Tx) error {
				return s.appendAuditSeq(ctx, tx, auditTeam, slices.Values([]AuditChange{c}), func(k AuditEntry) { e = k })
			})
			return e, err
		},
		"a refusal": func(c AuditChange) (AuditEntry, error) {
			if _, err := s.AppendRefusal(ctx, auditTeam, c); err != nil {
				return AuditEntry{}, err
			}
			last, _, err := s.AuditEntries(ctx, auditTeam, AuditFilter{}, AuditPage{Size: 1})
			if err != nil || len(last) == 0 {
				return AuditEntry{}, err
			}
			return last[0], nil
		},
	}
	fields := 0
	for _, f := range reflect.VisibleFields(reflect.TypeFor[AuditChange]()) {
		if f.Type.Kind() != reflect.String || f.Name == "Action" { // the action is a checked word, refused unless plain
			continue
		}
		fields++
		for way, appendIt := range ways {
			c := AuditChange{Actor: "alice", Action: "note"}
			reflect.ValueOf(&c).Elem().FieldByIndex(f.Index).SetString(strings.ToLower(f.Name) + dirtyText)
			if f.Name == "Actor" {
				c.Actor = "al" + "x\r\ny\rz\x1b\x00\u202eAB\u2066C" // names are short
			}
			e, err := appendIt(c)
			if err != nil {
				t.Errorf("%s with a dirty %s: %v", way, f.Name, err)
				continue
			}
			got := reflect.ValueOf(e.AuditChange).FieldByIndex(f.Index).String()
			lines := linesKept[f.Name] && !(way == "a refusal" && f.Name == "NewValue") // a refused path is one line
			bad := strings.IndexFunc(got, func(r rune) bool {
				return (unicode.IsControl(r) && !(lines && r == '\n')) || reordering(r) || r == '\u2028' || r == '\u2029'
			})
			if bad >= 0 || !strings.Contains(got, "x") || !strings.Contains(got, "ABC") {
				t.Errorf("%s: %s stored as %q", way, f.Name, got)
			}
			if lines && !strings.Contains(got, "x\ny\nz") {
				t.Errorf("%s: %s's line breaks not kept as LF: %q", way, f.Name, got)
			}
		}
	}
	if fields < 5 {
		t.Errorf("%d text fields of AuditChange checked; want at least actor, account, old and new value, reason", fields)
	}
	if v, err := s.VerifyAudit(ctx, auditTeam); err != nil || !v.Intact {
		t.Errorf("verify after the dirty entries: %+v, %v", v, err)
	}
}
