package main

import (
	"strconv"
	"testing"
	"time"

	"creditdash/internal/store"
)

// The twenty rules figure 6 makes are distinct (the store refuses a
// duplicate) and each passes the store's own validation, so the run does
// not stop at the form.
func TestBroadRulesAreDistinctAndValid(t *testing.T) {
	rules := broadRules()
	if len(rules) != 20 {
		t.Fatalf("%d rules, want 20", len(rules))
	}
	seen := map[ruleSpec]bool{}
	for _, r := range rules {
		if seen[r] {
			t.Errorf("rule %v twice", r)
		}
		seen[r] = true
		f := r.form("tok")
		if f.Get("_csrf") != "tok" || f.Get("scope") != string(store.ScopePortfolio) {
			t.Errorf("form %v: want the token and the portfolio scope", f)
		}
		v, err := strconv.ParseFloat(f.Get("threshold"), 64)
		if err != nil {
			t.Fatalf("threshold %q: %v", f.Get("threshold"), err)
		}
		spec := store.RuleSpec{Scope: store.Scope(f.Get("scope")), Score: store.Score(f.Get("score")),
			Condition: store.Condition(f.Get("condition")), Threshold: v}
		if _, err := store.CheckRule(spec); err != nil {
			t.Errorf("rule %v refused: %v", r, err)
		}
	}
}

func TestRulesRow(t *testing.T) {
	measured, target, ok := rulesRow(30*time.Millisecond, 15*time.Millisecond)
	if measured != "2.00× (30.0 ms / 15.0 ms)" || target != "<= 3×" || !ok {
		t.Errorf("rulesRow(30, 15 ms) = %q, %q, %v", measured, target, ok)
	}
	if _, _, ok := rulesRow(287*time.Millisecond, 15*time.Millisecond); ok {
		t.Error("rulesRow(287, 15 ms) passes; the unsettled alerts of issue 29 must fail it")
	}
	if measured, _, ok := rulesRow(time.Millisecond, 0); ok || measured == "" {
		t.Errorf("rulesRow(1 ms, 0) = %q, %v: no baseline must not pass as a ratio of infinity", measured, ok)
	}
}

// A profile's sample goes to the collector when any frame is its, else to
// the part of its innermost frame that names one.
func TestPartOf(t *testing.T) {
	for _, c := range []struct {
		frames []string
		want   string
	}{
		{[]string{"runtime.scanobject", "runtime.gcDrain", "runtime.gcBgMarkWorker"}, "GC"},
		{[]string{"runtime.memmove", "runtime.mallocgc", "runtime.gcAssistAlloc", "encoding/json.Marshal"}, "GC"},
		{[]string{"runtime.mallocgc", "encoding/json.Marshal", "creditdash/internal/views.Chart", "github.com/a-h/templ.Render"}, "json"},
		{[]string{"crypto/sha256.block", "creditdash/internal/handlers.(*Handler).pageKey"}, "handlers"},
		{[]string{"crypto/aes.encrypt", "github.com/gorilla/securecookie.(*SecureCookie).Decode"}, "session"},
		{[]string{"syscall.Syscall", "internal/poll.(*FD).Write", "net/http.(*conn).serve"}, "network I/O"},
		{[]string{"github.com/klauspost/compress/flate.(*compressor).write", "creditdash/internal/middleware.GzipBytes"}, "gzip"},
		{[]string{"runtime.findRunnable", "runtime.schedule"}, otherPart},
	} {
		if got := partOf(c.frames); got != c.want {
			t.Errorf("partOf(%v) = %q, want %q", c.frames, got, c.want)
		}
	}
}
