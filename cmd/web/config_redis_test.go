package main

import (
	"io"
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
