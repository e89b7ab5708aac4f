package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"
)

// tokenSpec is a spec of a token whose secret is secret.
func tokenSpec(name, scope, secret string, expires time.Time) TokenSpec {
	sum := sha256.Sum256([]byte(secret))
	return TokenSpec{Name: name, Scope: scope, Expires: expires, Hash: hex.EncodeToString(sum[:]), Prefix: secret[:8]}
}

// hashOf is the hash UseToken looks a secret up by.
func hashOf(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// TestTokenLife: a token is kept as its hash, found by it for its own
// service only, its use noted, revoked by its member only; creation and
// revocation are in the team's audit trail.
func TestTokenLife(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		expires := time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC)
		tok, err := s.CreateToken(ctx, alice, tokenSpec(" ERP sync ", ScopeWrite, "cdp_secret-one", expires))
		must(t, err)
		if tok.Name != "ERP sync" || tok.Scope != ScopeWrite || !tok.Expires.Equal(expires) || !tok.LastUsed.IsZero() {
			t.Errorf("created %+v", tok)
		}
		var stored int
		must(t, s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM api_tokens WHERE hash = $1", hashOf("cdp_secret-one")).Scan(&stored))
		if stored != 1 || countWhere(t, s, "api_tokens", "hash LIKE '%secret%'") != 0 {
			t.Error("the token is not kept by its hash alone")
		}
		if _, err := s.UseToken(ctx, aliceElse.Service, hashOf("cdp_secret-one")); err != ErrNotFound {
			t.Errorf("another service's use: %v, want not found", err)
		}
		if _, err := s.UseToken(ctx, alice.Service, hashOf("cdp_secret-two")); err != ErrNotFound {
			t.Errorf("an unknown secret: %v, want not found", err)
		}
		used, err := s.UseToken(ctx, alice.Service+"/", hashOf("cdp_secret-one"))
		must(t, err)
		if used.ID != tok.ID || used.User != "alice" || used.LastUsed.IsZero() {
			t.Errorf("used %+v", used)
		}
		list, err := s.Tokens(ctx, alice)
		must(t, err)
		if len(list) != 1 || !list[0].LastUsed.Equal(used.LastUsed) {
			t.Errorf("alice's tokens %+v", list)
		}
		if others, err := s.Tokens(ctx, bob); err != nil || len(others) != 0 {
			t.Errorf("bob's tokens %v, %v", others, err)
		}
		wantErr(t, "bob revokes alice's token", func() error { _, err := s.RevokeToken(ctx, bob, tok.ID); return err }(), ErrNotFound)
		revoked, err := s.RevokeToken(ctx, alice, tok.ID)
		must(t, err)
		if revoked.Revoked.IsZero() || revoked.RevokedBy != "alice" {
			t.Errorf("revoked %+v", revoked)
		}
		after, err := s.UseToken(ctx, alice.Service, hashOf("cdp_secret-one"))
		must(t, err)
		if after.Active(time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC)) {
			t.Error("a revoked token is active")
		}
		must(t, s.AuditAPIWrite(ctx, used, "POST /api/v1/limit-requests"))
		entries, _, err := s.AuditEntries(ctx, alice.Service, AuditFilter{}, AuditPage{Size: 10})
		must(t, err)
		var got []string
		for _, e := range entries {
			got = append(got, e.Action+" "+e.OldValue+" -> "+e.NewValue+" / "+e.Reason)
		}
		text := strings.Join(got, "\n")
		for _, want := range []string{"token  -> created write token", `"ERP sync" (cdp_secr…), expires 2025-09-01`,
			"-> revoked / revoked by its member", "api-write  -> POST /api/v1/limit-requests / with token"} {
			if !strings.Contains(text, want) {
				t.Errorf("audit trail lacks %q:\n%s", want, text)
			}
		}
	})
}

// TestTokenBounds: bad specs are refused naming the field; a member holds
// at most MaxActiveTokens, and a revoked one frees its place.
func TestTokenBounds(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		soon := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
		for _, c := range []struct {
			spec  TokenSpec
			field string
		}{
			{tokenSpec(" ", ScopeRead, "cdp_a1234567", soon), "name"},
			{tokenSpec(strings.Repeat("n", MaxTokenNameLen+1), ScopeRead, "cdp_a1234567", soon), "name"},
			{tokenSpec("two\nlines", ScopeRead, "cdp_a1234567", soon), "name"},
			{tokenSpec("x", "admin", "cdp_a1234567", soon), "scope"},
			{tokenSpec("x", ScopeRead, "cdp_a1234567", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)), "expires"},
			{tokenSpec("x", ScopeRead, "cdp_a1234567", time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)), "expires"},
		} {
			_, err := s.CreateToken(ctx, alice, c.spec)
			wantInvalid(t, "token "+c.spec.Name, err, c.field)
		}
		var first Token
		for i := range MaxActiveTokens {
			tok, err := s.CreateToken(ctx, alice, tokenSpec(fmt.Sprint("t", i), ScopeRead, fmt.Sprint("cdp_secret-", i), soon))
			must(t, err)
			if i == 0 {
				first = tok
			}
		}
		_, err := s.CreateToken(ctx, alice, tokenSpec("one more", ScopeRead, "cdp_secret-more", soon))
		wantErr(t, "past the bound", err, ErrTokensFull)
		_, err = s.CreateToken(ctx, bob, tokenSpec("bob's", ScopeRead, "cdp_secret-bob", soon))
		must(t, err)
		_, err = s.RevokeToken(ctx, alice, first.ID)
		must(t, err)
		_, err = s.CreateToken(ctx, alice, tokenSpec("one more", ScopeRead, "cdp_secret-more", soon))
		must(t, err)
	})
}

// TestTokensGoWithTheWorkspace: deleting a member's workspace deletes
// their tokens, each active one logged revoked; another's stay.
func TestTokensGoWithTheWorkspace(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		soon := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
		_, err := s.CreateToken(ctx, alice, tokenSpec("erp", ScopeWrite, "cdp_alice-one", soon))
		must(t, err)
		_, err = s.CreateToken(ctx, bob, tokenSpec("bob's", ScopeRead, "cdp_bob-one", soon))
		must(t, err)
		must(t, s.DeleteAnalyst(ctx, alice))
		if _, err := s.UseToken(ctx, alice.Service, hashOf("cdp_alice-one")); err != ErrNotFound {
			t.Errorf("alice's token after her workspace went: %v", err)
		}
		if _, err := s.UseToken(ctx, bob.Service, hashOf("cdp_bob-one")); err != nil {
			t.Errorf("bob's token: %v", err)
		}
		entries, _, err := s.AuditEntries(ctx, alice.Service, AuditFilter{Action: AuditActionToken}, AuditPage{Size: 10})
		must(t, err)
		if len(entries) != 3 || entries[0].NewValue != "revoked" || entries[0].Reason != "deleted with its member's workspace" {
			t.Errorf("token entries %+v", entries)
		}
	})
}
