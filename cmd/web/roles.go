package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"creditdash/internal/roles"
	"creditdash/internal/store"
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

// recordRoles logs the roles in force into the team's audit trail when they
// differ from the last ones it recorded (once, however many replicas
// start). A database that is not there yet is waited for, as the store
// itself waits, so a degraded start still records them when it comes.
func recordRoles(ctx context.Context, ws *store.Store, team string, t *roles.Table, log *slog.Logger) {
	wait := time.Second
	for {
		if ws.Unavailable() == nil {
			changed, err := ws.RecordRoles(ctx, team, t.InForce())
			if err == nil {
				log.Info("roles in force", "named", len(t.Named()), "analyst_authority", t.AnalystAuthority(), "changes_logged", len(changed))
				return
			}
			log.Warn("recording the roles in force", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}
