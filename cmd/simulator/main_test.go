package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"-addr", "127.0.0.1:9", "-seed", "7", "-asof", "2026-09", "-latency", "50ms", "-bulk", "1000"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.addr != "127.0.0.1:9" || cfg.seed != 7 || cfg.asOf.Month() != time.September || cfg.latency != 50*time.Millisecond || cfg.bulk != 1000 {
		t.Errorf("cfg = %+v", cfg)
	}
	for _, bad := range [][]string{
		{"-error-rate", "2"}, {"-latency", "-1s"}, {"-session-ttl", "0s"}, {"-bulk", "-1"},
		{"-asof", "2026-13"}, {"-data", "a", "-dump", "b"}, {"extra"},
	} {
		if _, err := parseFlags(bad); err == nil {
			t.Errorf("parseFlags(%q): no error", bad)
		}
	}
}

// -dump writes what -data reads back: the same dataset.
func TestDumpThenLoad(t *testing.T) {
	file := filepath.Join(t.TempDir(), "data.json")
	cfg, err := parseFlags([]string{"-dump", file, "-seed", "3", "-asof", "2026-06"})
	if err != nil {
		t.Fatal(err)
	}
	if err := run(cfg, nil, nil); err != nil {
		t.Fatalf("dump: %v", err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Size() == 0 {
		t.Fatalf("dump wrote nothing: %v", err)
	}
	loadCfg, err := parseFlags([]string{"-data", file})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset(loadCfg)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if ds.Seed != 3 || ds.AsOf != "2026-06" || len(ds.Businesses) < 500 {
		t.Errorf("loaded seed %d, asOf %s, %d businesses", ds.Seed, ds.AsOf, len(ds.Businesses))
	}
	secure := false
	for _, u := range ds.Users {
		secure = secure || (u.Username == "secure" && u.TwoFactor && u.BrowserVerification)
	}
	if !secure {
		t.Error("the loaded dataset lost the two-factor user secure")
	}
}

// The banner tells a person how to sign in as the two-factor user.
func TestBannerNamesTwoFactorUser(t *testing.T) {
	var b strings.Builder
	banner(&b, "http://127.0.0.1:8081", 0)
	for _, want := range []string{"secure", "two-factor", "/_sim/otp?user=secure"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("banner lacks %q:\n%s", want, b.String())
		}
	}
}
