package main

import (
	"io"
	"strings"
	"testing"
)

func TestConfigReadsRedisURL(t *testing.T) {
	cfg, err := loadConfig(nil, env(nil), io.Discard)
	if err != nil || cfg.RedisURL != "" {
		t.Fatalf("default: %q, %v; want no shared store", cfg.RedisURL, err)
	}
	cfg, err = loadConfig(nil, env(map[string]string{"REDIS_URL": " redis://:secret@10.0.0.5:6379/0 "}), io.Discard)
	if err != nil || cfg.RedisURL != "redis://:secret@10.0.0.5:6379/0" {
		t.Errorf("REDIS_URL read as %q, %v", cfg.RedisURL, err)
	}
	if _, err := loadConfig(nil, env(map[string]string{"REDIS_URL": "10.0.0.5:6379"}), io.Discard); err == nil {
		t.Error("REDIS_URL without a scheme: no error")
	}
}

// Replicas of one service share keys; a deployment on another service
// sharing the same Redis has keys of its own, so its users (the same
// names, other accounts) see none of these answers, budgets or sign-outs.
func TestSharedPrefixIsTheService(t *testing.T) {
	a := sharedPrefix("https://credit.example/api")
	if a != sharedPrefix("https://credit.example/api") {
		t.Error("two replicas of one service disagree on the prefix")
	}
	for _, other := range []string{"https://credit-test.example/api", "stand-in:seed=1", "stand-in:seed=2"} {
		if sharedPrefix(other) == a {
			t.Errorf("%s shares the prefix of https://credit.example/api", other)
		}
	}
	if sharedPrefix("stand-in:seed=1") == sharedPrefix("stand-in:seed=2") {
		t.Error("two seeds of the stand-in share a prefix")
	}
	if !strings.HasPrefix(a, "creditdash:") || !strings.HasSuffix(a, ":") || len(a) > 32 {
		t.Errorf("prefix %q: want creditdash:<short>:", a)
	}
}
