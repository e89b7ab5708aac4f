package health

import (
	"context"
	"errors"
	"time"

	"creditdash/internal/store"
)

// Workspace is what the checks ask of the workspace database.
type Workspace interface {
	Ping(ctx context.Context) error
	QuickCheck(ctx context.Context) error
}

// Deps are a replica's dependencies, as the standard checks see them.
type Deps struct {
	// Service asks the credit-risk service whether it answers.
	Service func(ctx context.Context) error
	// Workspace is the analysts' workspace database; FileCheck adds
	// SQLite's quick_check of its file (every FileEvery).
	Workspace Workspace
	FileCheck bool
	// SharedStore tells whether the shared store fails; nil: there is none.
	SharedStore func() error
	// Every is how often the service and the database are asked (0: 5 s);
	// FileEvery how often the file is checked (0: 5 minutes).
	Every, FileEvery time.Duration
}

// Standard are the checks of a replica: the service, the workspace
// database and its file, the shared store. Only a corrupt workspace file
// makes the replica unready: it is this replica's own, while the service,
// a PostgreSQL server and the shared store are every replica's.
func Standard(d Deps) []Check {
	if d.Every <= 0 {
		d.Every = 5 * time.Second
	}
	if d.FileEvery <= 0 {
		d.FileEvery = 5 * time.Minute
	}
	corrupt := func(err error) bool { return errors.Is(err, store.ErrCorrupt) }
	checks := []Check{
		{Name: "service", Label: "the credit-risk service", Every: d.Every, Timeout: 5 * time.Second, Run: d.Service},
		{Name: "workspace", Label: "the workspace database", Every: d.Every, Timeout: 5 * time.Second,
			Run: d.Workspace.Ping, Unready: corrupt},
	}
	if d.FileCheck {
		checks = append(checks, Check{Name: "workspace_file", Label: "the workspace database's file", Every: d.FileEvery,
			Timeout: time.Minute, Run: d.Workspace.QuickCheck, Unready: corrupt})
	}
	if d.SharedStore != nil {
		checks = append(checks, Check{Name: "shared_store", Label: "the shared store", Every: d.Every, Timeout: time.Second,
			Run: func(context.Context) error { return d.SharedStore() }})
	}
	return checks
}
