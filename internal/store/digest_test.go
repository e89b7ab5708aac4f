package store

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// Digest settings: addresses are parsed as RFC 5322 and bounded, a new
// address is unverified until its link is followed, one verification mail
// a minute (claimed once however many ask at once), only verified
// analysts with a frequency are subscribers, and a failed send is kept
// until the next success.
func TestDigestSettings(t *testing.T) {
	for _, bad := range []string{"", "nobody", "a@", "Boss <boss@example.com>", "two@example.com, three@example.com",
		strings.Repeat("a", 245) + "@example.com"} {
		if _, err := CheckEmail(bad); err == nil {
			t.Errorf("CheckEmail(%q) accepted", bad)
		}
	}
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		if d, err := s.Digest(ctx, alice); err != nil || d.Email != "" || d.Frequency != DigestOff {
			t.Fatalf("never set up: %+v, %v", d, err)
		}
		_, err := s.SaveDigest(ctx, alice, "alice@example", "hourly")
		wantInvalid(t, "SaveDigest", err, "frequency")
		_, err = s.SaveDigest(ctx, alice, "alice(at)example.com", DigestDaily)
		wantInvalid(t, "SaveDigest", err, "email")
		if _, err := s.ClaimVerification(ctx, alice); !errors.Is(err, ErrNotFound) {
			t.Fatalf("claim without an address: %v", err)
		}

		d, err := s.SaveDigest(ctx, alice, " alice@example.com ", DigestDaily)
		if err != nil || d.Email != "alice@example.com" || d.Verified || d.Subscribed() {
			t.Fatalf("saved: %+v, %v", d, err)
		}
		// Ten at once: one claim.
		var wg sync.WaitGroup
		var mu sync.Mutex
		claimed := 0
		for range 10 {
			wg.Go(func() {
				if _, err := s.ClaimVerification(ctx, alice); err == nil {
					mu.Lock()
					claimed++
					mu.Unlock()
				} else if !errors.Is(err, ErrTooSoon) {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if claimed != 1 {
			t.Fatalf("%d verification mails claimed at once, want 1", claimed)
		}
		if err := s.VerifyDigestEmail(ctx, alice, "old@example.com"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("verifying another address: %v", err)
		}
		subs, err := s.Subscribers(ctx, 10)
		if err != nil || len(subs) != 0 {
			t.Fatalf("subscribers before verifying: %+v, %v", subs, err)
		}
		if err := s.VerifyDigestEmail(ctx, alice, "alice@example.com"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SaveDigest(ctx, bob, "bob@example.com", DigestWeekly); err != nil {
			t.Fatal(err)
		}
		subs, err = s.Subscribers(ctx, 10)
		if err != nil || len(subs) != 1 || subs[0].Analyst != alice || subs[0].Frequency != DigestDaily {
			t.Fatalf("subscribers: %+v, %v", subs, err)
		}

		if err := s.DigestFailed(ctx, alice, "451 busy"+strings.Repeat("x", 400)); err != nil {
			t.Fatal(err)
		}
		if d, _ := s.Digest(ctx, alice); !strings.HasPrefix(d.Failure, "451 busy") || len(d.Failure) > 300 || d.FailedAt.IsZero() {
			t.Fatalf("after a failure: %+v", d)
		}
		if err := s.DigestSent(ctx, alice, "day 2025-03-01"); err != nil {
			t.Fatal(err)
		}
		if err := s.DigestSent(ctx, alice, ""); err != nil { // sent on request: the period stays
			t.Fatal(err)
		}
		d, _ = s.Digest(ctx, alice)
		if d.Failure != "" || d.LastPeriod != "day 2025-03-01" || d.LastSent.IsZero() {
			t.Fatalf("after sending: %+v", d)
		}

		// A new address is unverified again; unsubscribing turns it off.
		if d, _ := s.SaveDigest(ctx, alice, "alice@example.org", DigestDaily); d.Verified {
			t.Fatal("a changed address kept its verification")
		}
		if err := s.UnsubscribeDigest(ctx, alice, "alice@example.com"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unsubscribing the earlier address: %v, want ErrNotFound", err)
		}
		if d, _ := s.Digest(ctx, alice); d.Frequency != DigestDaily {
			t.Fatalf("the earlier address's unsubscribe turned the new one's digest off: %+v", d)
		}
		if err := s.UnsubscribeDigest(ctx, alice, "alice@example.org"); err != nil {
			t.Fatal(err)
		}
		if d, _ := s.Digest(ctx, alice); d.Frequency != DigestOff {
			t.Fatalf("after unsubscribing: %+v", d)
		}
	})
}

// The verification mail can be claimed again once a minute has passed.
func TestDigestVerificationOnceAMinute(t *testing.T) {
	now := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	s := openTest(t, SQLite, Config{Now: clock})
	ctx := t.Context()
	if _, err := s.SaveDigest(ctx, alice, "alice@example.com", DigestWeekly); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClaimVerification(ctx, alice); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	now = now.Add(59 * time.Second)
	mu.Unlock()
	if _, err := s.ClaimVerification(ctx, alice); !errors.Is(err, ErrTooSoon) {
		t.Fatalf("59 s later: %v, want ErrTooSoon", err)
	}
	mu.Lock()
	now = now.Add(time.Second)
	mu.Unlock()
	if email, err := s.ClaimVerification(ctx, alice); err != nil || email != "alice@example.com" {
		t.Fatalf("a minute later: %q, %v", email, err)
	}
}
