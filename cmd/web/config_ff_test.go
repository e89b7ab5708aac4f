package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// -h lists every setting with its variable, exits 0 (errHelp), and shows
// no secret's value, even one that is set.
func TestHelpListsEverySettingAndNoSecret(t *testing.T) {
	var out bytes.Buffer
	_, err := loadConfig([]string{"-h"}, env(map[string]string{"SESSION_SECRET": strings.Repeat("s", 40), "DATABASE_URL": "postgres://u:hunter22pw@db/x"}), &out)
	if err != errHelp {
		t.Fatalf("-h: err %v, want errHelp", err)
	}
	for _, want := range []string{"LISTEN_ADDR", "METRICS_ADDR", "UPSTREAM_URL", "SESSION_SECRET or SESSION_SECRET_FILE",
		"DATABASE_URL or DATABASE_URL_FILE", "REDIS_URL or REDIS_URL_FILE", "SHUTDOWN_GRACE", "PUBLIC_URL", "TRUSTED_PROXIES",
		"CACHE_MB", "LOG_FORMAT", "-version", "(default 30s)", "(default 127.0.0.1:8080)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "hunter22pw") || strings.Contains(out.String(), "ssssssss") {
		t.Errorf("-h shows a secret:\n%s", out.String())
	}
}

func TestVersionFlagAndExitCodes(t *testing.T) {
	// A VERSION variable of a build system is no setting of ours.
	if _, err := loadConfig(nil, env(map[string]string{"VERSION": "1.2.3"}), io.Discard); err != nil {
		t.Errorf("VERSION in the environment: %v", err)
	}
	var out, errs bytes.Buffer
	if code := run(t.Context(), []string{"-version"}, env(nil), &out, &errs); code != 0 || !strings.HasPrefix(out.String(), "web dev (revision ") {
		t.Errorf("-version: exit %d, %q", code, out.String())
	}
	out.Reset()
	if code := run(t.Context(), []string{"-h"}, env(nil), &out, &errs); code != 0 || !strings.Contains(out.String(), "Usage") {
		t.Errorf("-h: exit %d", code)
	}
}

// Typed flags: a wrong value names the variable; a bad address is found
// at once.
func TestTypedSettingsRefuseBadValues(t *testing.T) {
	for name, m := range map[string]map[string]string{
		"LISTEN_ADDR":      {"LISTEN_ADDR": "8080"},
		"LISTEN_ADDR port": {"LISTEN_ADDR": "127.0.0.1:99999"},
		"METRICS_ADDR":     {"METRICS_ADDR": "not an address:1"},
		"same listener":    {"METRICS_ADDR": "127.0.0.1:8080"},
		"SHUTDOWN_GRACE":   {"SHUTDOWN_GRACE": "soon"},
		"CACHE_MB":         {"CACHE_MB": "-3"},
		"UPSTREAM_URL":     {"UPSTREAM_URL": "credit.example", "SESSION_SECRET": strings.Repeat("x", 32)},
	} {
		_, err := loadConfig(nil, env(m), io.Discard)
		key := strings.Fields(name)[0]
		if key == "same" {
			key = "METRICS_ADDR"
		}
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s: err %v, want one naming %s", name, err, key)
		}
	}
	cfg, err := loadConfig([]string{"-shutdown-grace", "45s", "-metrics-addr", "127.0.0.1:9090"}, env(nil), io.Discard)
	if err != nil || cfg.ShutdownGrace != 45*time.Second || cfg.MetricsAddr != "127.0.0.1:9090" {
		t.Errorf("flags: %+v, %v", cfg, err)
	}
}

// Secrets come from the environment or NAME_FILE, never the command line.
func TestSecretsFromFilesNeverFromTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	secret := strings.Repeat("k", 40)
	path := filepath.Join(dir, "secret")
	if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "db")
	if err := os.WriteFile(dbPath, []byte("postgres://u:pw123456@db:5432/x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(nil, env(map[string]string{"UPSTREAM_URL": "https://api.example", "SESSION_SECRET_FILE": path, "DATABASE_URL_FILE": dbPath}), io.Discard)
	if err != nil || len(cfg.SessionSecrets) != 1 || cfg.SessionSecrets[0] != secret || cfg.DatabaseURL != "postgres://u:pw123456@db:5432/x" {
		t.Errorf("from files: %v, %v", cfg.SessionSecrets, err)
	}
	if _, err := loadConfig(nil, env(map[string]string{"SESSION_SECRET": secret, "SESSION_SECRET_FILE": path}), io.Discard); err == nil {
		t.Error("SESSION_SECRET and SESSION_SECRET_FILE both set: no error")
	}
	if _, err := loadConfig(nil, env(map[string]string{"REDIS_URL_FILE": filepath.Join(dir, "missing")}), io.Discard); err == nil || !strings.Contains(err.Error(), "REDIS_URL_FILE") {
		t.Errorf("a missing REDIS_URL_FILE: %v", err)
	}
	_, err = loadConfig([]string{"-session-secret=" + secret}, env(nil), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "SESSION_SECRET_FILE") || strings.Contains(err.Error(), secret) {
		t.Errorf("a secret on the command line: %v", err)
	}
}
