package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"creditdash/internal/roles"
)

func TestConfigRoles(t *testing.T) {
	secret := strings.Repeat("s", 32)
	real := map[string]string{"UPSTREAM_URL": "https://api.example", "SESSION_SECRET": secret}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range real {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}

	// Demo mode without TEAM_ROLES: the demo users' roles.
	cfg, err := loadConfig(nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Roles.Of("trade"); got.Role != roles.Auditor {
		t.Errorf("demo: trade is %v, want an auditor", got)
	}
	// A real service without TEAM_ROLES: everyone an analyst.
	cfg, err = loadConfig(nil, env(with(map[string]string{"ANALYST_AUTHORITY": "2500"})), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Roles.Of("trade"); got != (roles.Assignment{Role: roles.Analyst, Authority: 2500}) {
		t.Errorf("no TEAM_ROLES: trade is %v, want an analyst of 2500", got)
	}
	// The variable, the flag over it, and the file.
	cfg, err = loadConfig(nil, env(with(map[string]string{"TEAM_ROLES": "alice=manager:250000,bob=analyst:10000,carol=auditor"})), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Roles.Of("alice").Role != roles.Manager || cfg.Roles.Of("carol").Role != roles.Auditor {
		t.Errorf("TEAM_ROLES: %v", cfg.Roles.Lines())
	}
	cfg, err = loadConfig([]string{"-team-roles", "carol=manager:5"}, env(with(map[string]string{"TEAM_ROLES": "carol=auditor"})), io.Discard)
	if err != nil || cfg.Roles.Of("carol").Role != roles.Manager {
		t.Errorf("-team-roles over TEAM_ROLES: %v, %v", cfg.Roles.Lines(), err)
	}
	path := filepath.Join(t.TempDir(), "roles")
	if err := os.WriteFile(path, []byte("# the credit team\nalice=manager:250000\ncarol=auditor\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err = loadConfig(nil, env(with(map[string]string{"TEAM_ROLES_FILE": path})), io.Discard)
	if err != nil || cfg.Roles.Of("carol").Role != roles.Auditor {
		t.Errorf("TEAM_ROLES_FILE: %v, %v", cfg.Roles.Lines(), err)
	}

	// Bad values are named, the bad line with them.
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"TEAM_ROLES": "alice=manager:250000,bob=boss"}, `TEAM_ROLES: "bob=boss": role "boss" is not analyst, manager, admin or auditor`},
		{map[string]string{"TEAM_ROLES_FILE": path + ".missing"}, "TEAM_ROLES_FILE: open"},
		{map[string]string{"TEAM_ROLES": "a=analyst", "TEAM_ROLES_FILE": path}, "both set"},
		{map[string]string{"ANALYST_AUTHORITY": "lots"}, `ANALYST_AUTHORITY: authority "lots" is not a whole number`},
	} {
		_, err := loadConfig(nil, env(with(c.env)), io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.env, err, c.want)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(bad, []byte("alice=manager:1\n\ncarol=auditor:9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = loadConfig(nil, env(with(map[string]string{"TEAM_ROLES_FILE": bad})), io.Discard)
	if err == nil || !strings.Contains(err.Error(), `line 3: "carol=auditor:9": an auditor changes nothing`) {
		t.Errorf("bad file: err = %v", err)
	}
}
