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

// The digest's settings: SMTP_URL is a secret (listed in -h, never shown,
// read from SMTP_URL_FILE, refused on the command line), DIGEST_FROM an
// address, DIGEST_TICK a duration defaulting to a minute.
func TestDigestSettings(t *testing.T) {
	const smtp = "smtp://mailer:hunter33pw@mail.example.com:587"
	var out bytes.Buffer
	if _, err := loadConfig([]string{"-h"}, env(map[string]string{"SMTP_URL": smtp}), &out); err != errHelp {
		t.Fatalf("-h: %v", err)
	}
	for _, want := range []string{"SMTP_URL or SMTP_URL_FILE", "DIGEST_FROM", "DIGEST_TICK", "(default 1m0s)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h lacks %q", want)
		}
	}
	if strings.Contains(out.String(), "hunter33pw") {
		t.Error("-h shows SMTP_URL's password")
	}

	cfg, err := loadConfig(nil, env(nil), io.Discard)
	if err != nil || cfg.DigestTick != time.Minute || cfg.SMTPURL != "" {
		t.Fatalf("defaults: tick %s, smtp %q, %v", cfg.DigestTick, cfg.SMTPURL, err)
	}
	file := filepath.Join(t.TempDir(), "smtp")
	if err := os.WriteFile(file, []byte(smtp+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err = loadConfig(nil, env(map[string]string{"SMTP_URL_FILE": file, "DIGEST_TICK": "2s", "DIGEST_FROM": "Credit <credit@example.com>"}), io.Discard)
	if err != nil || cfg.SMTPURL != smtp || cfg.DigestTick != 2*time.Second || cfg.DigestFrom != "Credit <credit@example.com>" {
		t.Fatalf("from the environment: %+v, %v", cfg, err)
	}
	if _, err := loadConfig([]string{"-smtp-url", smtp}, env(nil), io.Discard); err == nil || strings.Contains(err.Error(), "hunter33pw") {
		t.Errorf("SMTP_URL on the command line: %v", err)
	}
	for name, bad := range map[string]map[string]string{
		"scheme": {"SMTP_URL": "http://mailer:hunter33pw@x"},
		"from":   {"DIGEST_FROM": "not an address"},
		"tick":   {"DIGEST_TICK": "0s"},
	} {
		if _, err := loadConfig(nil, env(bad), io.Discard); err == nil || strings.Contains(err.Error(), "hunter33pw") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
