package app

import (
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
