package session

import (
	"strings"
	"testing"
	"time"
)

func TestCookieStampIsWhenTheCookieWasSealed(t *testing.T) {
	store, _ := NewStore([]string{strings.Repeat("s", 40)}, true, time.Hour)
	before := time.Now().Add(-time.Second)
	ck := seal(t, store, Session{Key: "k", User: "demo", SignedInAt: time.Now()})[0]
	at, ok := cookieStamp(ck.Value)
	if !ok || at.Before(before) || at.After(time.Now()) {
		t.Errorf("cookie stamp %v (%v), want about now", at, ok)
	}
	for _, bad := range []string{"", "x", "!!!!", "bm90IGEgc3RhbXA="} {
		if _, ok := cookieStamp(bad); ok {
			t.Errorf("cookieStamp(%q) read a stamp", bad)
		}
	}
}

// A kept session is the decoded one, with its forms' token, used only for
// the very same cookie value, and never past the cookie's own age limit.
func TestKeptSessionsAreTheDecodedOnesForTheirAgeOnly(t *testing.T) {
	store, _ := NewStore([]string{strings.Repeat("s", 40)}, true, 2*time.Minute)
	memo, err := NewMemo(store, DefaultMemoBytes)
	if err != nil {
		t.Fatal(err)
	}
	want := Session{Key: "11/21/2026 09:15:02 abc/def", User: "demo", SignedInAt: time.UnixMilli(time.Now().UnixMilli()), CSRF: "GLFQ3MFLJXOUOARATY2UAQOALC"}
	wantToken := tokenOf(want.CSRF)
	sealed := seal(t, store, want)
	if got, tok, ok := memo.Load(with(sealed)); !ok || got != want || tok != wantToken {
		t.Fatalf("first read: %+v, token %q, %v", got, tok, ok)
	}
	k, ok := memo.kept.GetIfPresent(sealed[0].Value)
	if !ok || k.s != want || k.token != wantToken {
		t.Fatalf("the decoded session was not kept: %+v, %v", k, ok)
	}
	stamp, _ := cookieStamp(sealed[0].Value)
	if k.until.After(stamp.Add(2*time.Minute)) || k.until.After(time.Now().Add(sessionMemoLife)) {
		t.Errorf("kept until %v: past the cookie's age limit (%v) or the memo's life", k.until, stamp.Add(2*time.Minute))
	}
	if got, tok, ok := memo.Load(with(sealed)); !ok || got != want || tok != wantToken {
		t.Errorf("kept read: %+v, token %q, %v", got, tok, ok)
	}
	// A changed value is read in full, and a tampered one opens nothing.
	tampered := *sealed[0]
	tampered.Value = tampered.Value[:len(tampered.Value)-2] + "AA"
	if _, _, ok := memo.Load(with(nil)); ok {
		t.Error("no cookie opened a session")
	}
	if s, _, ok := memo.Load(with(append(sealed[:0:0], &tampered))); ok {
		t.Errorf("a tampered cookie opened %+v", s)
	}
	// Past its time, the kept entry is not used: the cookie is read in
	// full, which a store with other keys refuses.
	memo.store, _ = NewStore([]string{strings.Repeat("o", 40)}, true, 2*time.Minute)
	if _, _, ok := memo.Load(with(sealed)); !ok {
		t.Error("within its time, the kept session was not used")
	}
	memo.now = func() time.Time { return k.until }
	if _, _, ok := memo.Load(with(sealed)); ok {
		t.Error("a kept session was used past its time")
	}
}
