package app

import (
	"context"
	"strings"
	"testing"
)

// Replicas of one service share keys; a deployment on another service
// sharing the same Redis has keys of its own, so its users (the same
// names, other accounts) see none of these answers, budgets or sign-outs.
func TestSharedPrefixIsTheService(t *testing.T) {
	a := SharedPrefix("https://credit.example/api")
	if a != SharedPrefix("https://credit.example/api") {
		t.Error("two replicas of one service disagree on the prefix")
	}
	for _, other := range []string{"https://credit-test.example/api", "stand-in:seed=1", "stand-in:seed=2"} {
		if SharedPrefix(other) == a {
			t.Errorf("%s shares the prefix of https://credit.example/api", other)
		}
	}
	if SharedPrefix("stand-in:seed=1") == SharedPrefix("stand-in:seed=2") {
		t.Error("two seeds of the stand-in share a prefix")
	}
	if !strings.HasPrefix(a, "creditdash:") || !strings.HasSuffix(a, ":") || len(a) > 32 {
		t.Errorf("prefix %q: want creditdash:<short>:", a)
	}
}

// TestHeapBudgetShares: CACHE_MB is the whole heap's budget, the soft
// memory limit: the collector's room and every cache share it exactly,
// each gets some, and the default keeps a 50,000-account team's figures.
func TestHeapBudgetShares(t *testing.T) {
	for _, mib := range []uint64{1, 8, 64, 84, 1024, 1 << 20} {
		total := mib << 20
		parts := map[string]uint64{"collector": collectorBytes(total), "copies": cacheBytes(total), "pages": pageBytes(total),
			"sessions": sessionBytes(total), "team": teamBytes(total)}
		var sum uint64
		for name, n := range parts {
			if n == 0 || n > total {
				t.Errorf("CACHE_MB=%d: %s gets %d bytes", mib, name, n)
			}
			sum += n
		}
		if sum != total {
			t.Errorf("CACHE_MB=%d: the shares add up to %d bytes, want %d", mib, sum, total)
		}
		if c := collectorBytes(total); c < min(20<<20, total/2) || c > total/2 {
			t.Errorf("CACHE_MB=%d: the collector's room is %d bytes", mib, c)
		}
	}
	if team := teamBytes(84 << 20); team < 27e6 {
		t.Errorf("the default's team share is %d bytes, less than a 50,000-account team's 27 MB", team)
	}
	if cacheBytes(0) != 0 || pageBytes(0) != 0 || sessionBytes(0) != 0 || teamBytes(0) != 0 {
		t.Error("no budget should leave every part its own default")
	}
}

// A misconfiguration comes back as its own error: the cleanup of what was
// opened must not trip over the nil App a failing return leaves.
func TestBuildFailsWithItsError(t *testing.T) {
	a, err := Build(context.Background(), Config{ServiceURL: "not a url"}, Seams{})
	if err == nil || a != nil {
		t.Fatalf("Build = %v, %v; want the URL's error", a, err)
	}
	if !strings.Contains(err.Error(), "service URL") {
		t.Fatalf("error %q does not name the service URL", err)
	}
}
