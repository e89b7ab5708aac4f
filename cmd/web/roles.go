package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"creditdash/internal/roles"
)

// maxRolesFile bounds TEAM_ROLES_FILE: ten thousand names fit in far less.
const maxRolesFile = 1 << 20

// loadRoles builds the team's roles from TEAM_ROLES (text) or
// TEAM_ROLES_FILE (path), never both, and ANALYST_AUTHORITY. With neither
// set, demo mode gives the demo users their roles and a real deployment
// makes everyone an analyst.
func loadRoles(text, path, authority string, demo bool) (*roles.Table, error) {
	auth, err := roles.ParseAuthority(authority)
	if err != nil {
		return nil, fmt.Errorf("ANALYST_AUTHORITY: %w", err)
	}
	source := "TEAM_ROLES"
	switch {
	case text != "" && path != "":
		return nil, errors.New("TEAM_ROLES and TEAM_ROLES_FILE are both set: keep one")
	case path != "":
		source = "TEAM_ROLES_FILE " + path
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("TEAM_ROLES_FILE: %w", err)
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, maxRolesFile+1))
		if err != nil {
			return nil, fmt.Errorf("TEAM_ROLES_FILE: %w", err)
		}
		if len(b) > maxRolesFile {
			return nil, fmt.Errorf("TEAM_ROLES_FILE %s is larger than %d bytes", path, maxRolesFile)
		}
		text = string(b)
	case text == "" && demo:
		return roles.Demo(auth), nil
	}
	return roles.Parse(source, text, auth)
}
