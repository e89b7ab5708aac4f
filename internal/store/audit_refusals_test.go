package store

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// A flood of refusals writes MaxRefusalsLogged entries a minute per user;
// the rest are counted and enter the log as one entry with the team's next
// append after that minute. Another user's refusals are their own, and
// the log stays one verified chain.
func TestAuditRefusalsCountedPastTheMinutesBound(t *testing.T) {
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			now := time.Date(2026, 11, 28, 10, 0, 5, 0, time.UTC)
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
			s := openTest(t, e, Config{Now: clock})
			ctx := t.Context()
			refuse := func(actor string) bool {
				t.Helper()
				logged, err := s.AppendRefusal(ctx, auditTeam, AuditChange{Actor: actor,
					NewValue: "change-workspace /x\n=HYPERLINK(\"y\")", Reason: "Auditors read everything and change nothing."})
				must(t, err)
				return logged
			}
			logged := 0
			for range 400 {
				if refuse("carol") {
					logged++
				}
			}
			if !refuse("dave") {
				t.Error("another user's first refusal was not logged")
			}
			if logged != MaxRefusalsLogged {
				t.Errorf("%d of carol's 400 refusals logged, want %d", logged, MaxRefusalsLogged)
			}
			refused, _, err := s.AuditEntries(ctx, auditTeam, AuditFilter{Action: AuditActionRefused}, AuditPage{Size: 100})
			must(t, err)
			if len(refused) != MaxRefusalsLogged+1 {
				t.Fatalf("%d refusal entries in the minute, want %d", len(refused), MaxRefusalsLogged+1)
			}
			if v := refused[0].NewValue; strings.ContainsAny(v, "\r\n") {
				t.Errorf("a refusal's path is logged with its line break: %q", v)
			}

			mu.Lock()
			now = now.Add(time.Minute)
			mu.Unlock()
			next := appendN(t, s, auditTeam, "alice", 1)[0]
			all, _, err := s.AuditEntries(ctx, auditTeam, AuditFilter{}, AuditPage{Size: 3})
			must(t, err)
			sum := all[1]
			if sum.Actor != "carol" || sum.Action != AuditActionRefused || sum.NewValue != "and 390 more refusals" ||
				!strings.Contains(sum.Reason, "refused 400 times") || all[0].Seq != next.Seq {
				t.Errorf("the entry before the next one = %+v, want carol's sum of 390 more refusals", sum)
			}
			var kept int
			must(t, s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM audit_refusals").Scan(&kept))
			if kept != 0 {
				t.Errorf("%d counts kept after their sum was logged", kept)
			}
			v, err := s.VerifyAudit(ctx, auditTeam)
			if err != nil || !v.Intact || v.Entries != int64(MaxRefusalsLogged+3) {
				t.Errorf("verify: %+v, %v", v, err)
			}
		})
	}
}

// Text enters the log cleaned: line breaks as LF where a field may have
// lines and as spaces where it may not, other control characters as
// spaces, the characters that reorder text dropped.
func TestAuditTextCleaned(t *testing.T) {
	for _, c := range []struct {
		in    string
		lines bool
		want  string
	}{
		{"plain", false, "plain"},
		{"a\r\nb\rc\nd", true, "a\nb\nc\nd"},
		{"a\r\nb\rc\nd", false, "a b c d"},
		{"tab\there\x00nul\x1besc\u0085nel", true, "tab here nul esc\nnel"},
		{"line\u2028sep\u2029par", true, "line\nsep\npar"},
		{"ACC\u202e1\u2066x\u2069\u200f", false, "ACC1x"},
		{"é ünïcode €", false, "é ünïcode €"},
	} {
		if got := cleanAuditText(c.in, c.lines); got != c.want {
			t.Errorf("cleanAuditText(%q, %v) = %q, want %q", c.in, c.lines, got, c.want)
		}
	}
	s := openTest(t, SQLite, Config{})
	e, err := s.AppendAudit(t.Context(), auditTeam, AuditChange{Actor: "alice", Action: "limit", Account: "A\r\n1",
		OldValue: "x\r\ny", Reason: "why\r\nnot\x00"})
	must(t, err)
	if e.Account != "A 1" || e.OldValue != "x\ny" || e.Reason != "why\nnot " {
		t.Errorf("stored %+v", e.AuditChange)
	}
}
