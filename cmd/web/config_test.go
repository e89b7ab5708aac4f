package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigDefaultsToDemoMode(t *testing.T) {
	cfg, err := loadConfig(nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.demo() || cfg.ListenAddr != "127.0.0.1:8080" || !cfg.CookieSecure || cfg.UpstreamTimeout != 10*time.Second {
		t.Errorf("defaults = %+v", cfg)
	}
}

func TestConfigRequiresSecretWithRealService(t *testing.T) {
	_, err := loadConfig(nil, env(map[string]string{"UPSTREAM_URL": "https://api.example"}), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "SESSION_SECRET is required") {
		t.Errorf("err = %v, want a clear SESSION_SECRET message", err)
	}
}

func TestConfigReadsRotatingSecrets(t *testing.T) {
	a, b := strings.Repeat("a", 32), strings.Repeat("b", 40)
	cfg, err := loadConfig(nil, env(map[string]string{
		"UPSTREAM_URL": "https://api.example/", "SESSION_SECRET": a + ", " + b,
		"COOKIE_SECURE": "false", "UPSTREAM_TIMEOUT": "3s", "LOG_FORMAT": "json", "LOG_LEVEL": "debug",
	}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.SessionSecrets) != 2 || cfg.SessionSecrets[0] != a || cfg.UpstreamURL != "https://api.example" || cfg.CookieSecure || cfg.UpstreamTimeout != 3*time.Second {
		t.Errorf("cfg = %+v", cfg)
	}
}

func TestConfigRefusesBadValues(t *testing.T) {
	cases := map[string]map[string]string{
		"short secret": {"SESSION_SECRET": "short"},
		"timeout":      {"UPSTREAM_TIMEOUT": "soon"},
		"secure":       {"COOKIE_SECURE": "maybe"},
		"format":       {"LOG_FORMAT": "xml"},
		"level":        {"LOG_LEVEL": "loud"},
	}
	for name, m := range cases {
		if _, err := loadConfig(nil, env(m), io.Discard); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestFlagsOverrideEnvironment(t *testing.T) {
	cfg, err := loadConfig([]string{"-listen-addr", "127.0.0.1:9999"}, env(map[string]string{"LISTEN_ADDR": "127.0.0.1:1"}), io.Discard)
	if err != nil || cfg.ListenAddr != "127.0.0.1:9999" {
		t.Errorf("listen = %q (err %v), want the flag's", cfg.ListenAddr, err)
	}
}

func TestConfigReadsStaticDir(t *testing.T) {
	cfg, err := loadConfig(nil, env(nil), io.Discard)
	if err != nil || cfg.StaticDir != "" {
		t.Errorf("default StaticDir = %q (err %v), want empty: the embedded copy", cfg.StaticDir, err)
	}
	cfg, err = loadConfig([]string{"-static-dir", "b"}, env(map[string]string{"STATIC_DIR": "a"}), io.Discard)
	if err != nil || cfg.StaticDir != "b" {
		t.Errorf("StaticDir = %q (err %v), want the flag's", cfg.StaticDir, err)
	}
}

func TestConfigReadsTrustedProxies(t *testing.T) {
	cfg, err := loadConfig(nil, env(map[string]string{"TRUSTED_PROXIES": " 172.28.0.10, 10.1.2.3/8,,::ffff:192.0.2.1 "}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range cfg.TrustedProxies {
		got = append(got, p.String())
	}
	if want := "172.28.0.10/32 10.0.0.0/8 192.0.2.1/32"; strings.Join(got, " ") != want {
		t.Errorf("TrustedProxies = %v, want %s", got, want)
	}
	_, err = loadConfig(nil, env(map[string]string{"TRUSTED_PROXIES": "172.28.0.10, nginx"}), io.Discard)
	if err == nil || !strings.Contains(err.Error(), `"nginx" is not an address or a network`) {
		t.Errorf("err = %v, want one naming the entry that is no address", err)
	}
}

func TestConfigReadsPublicURL(t *testing.T) {
	cfg, err := loadConfig(nil, env(map[string]string{"PUBLIC_URL": "https://credit.example.com:8443/"}), io.Discard)
	if err != nil || cfg.PublicURL != "https://credit.example.com:8443" {
		t.Errorf("PublicURL = %q (err %v)", cfg.PublicURL, err)
	}
	for _, bad := range []string{"credit.example.com", "ftp://x", "https://x/dash", "https://u:p@x"} {
		if _, err := loadConfig(nil, env(map[string]string{"PUBLIC_URL": bad}), io.Discard); err == nil || !strings.Contains(err.Error(), "PUBLIC_URL") {
			t.Errorf("PUBLIC_URL %q: err %v, want one naming PUBLIC_URL", bad, err)
		}
	}
}
