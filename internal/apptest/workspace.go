package apptest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	workspace "creditdash/internal/store"
	"creditdash/internal/store/storetest"
)

var (
	migratedOnce sync.Once
	migratedFile []byte
	migratedErr  error
)

// seedWorkspace writes into dir a SQLite workspace file with every
// migration applied. The file is made once per test binary, by the store's
// own Open, and copied for each app: running the migrations for every app
// cost seconds under the race detector, most of a short test. Open still
// runs on the copy (quick_check, goose finding nothing pending), so a
// migration that fails still fails every test.
func seedWorkspace(dir string) error {
	migratedOnce.Do(func() { migratedFile, migratedErr = migrateOnce() })
	if migratedErr != nil {
		return migratedErr
	}
	return os.WriteFile(filepath.Join(dir, workspace.FileName), migratedFile, 0o600)
}

// migrateOnce opens a workspace in a directory of its own, closes it (the
// last connection's close checkpoints the WAL into the file) and reads the
// file back.
func migrateOnce() ([]byte, error) {
	dir, err := os.MkdirTemp("", "apptest-workspace-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	st, err := workspace.Open(context.Background(), workspace.Config{DataDir: dir})
	if err != nil {
		return nil, err
	}
	if err := st.Close(); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, workspace.FileName)
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("apptest: the migrated workspace kept its WAL after closing (%v)", err)
	}
	return os.ReadFile(path)
}

var (
	pgOnce     sync.Once
	pgTemplate string
	pgErr      error
)

// PostgresDatabase is a PostgreSQL workspace database of the test's own
// (storetest.Database) with every migration applied: a copy of a template
// the store's own Open migrated once per test binary, since running the
// migrations for every test cost about a second each. Open still runs on
// the copy. A test of migrating an empty database uses storetest.Database.
func PostgresDatabase(t testing.TB) string {
	t.Helper()
	base := storetest.Server(t)
	pgOnce.Do(func() { pgTemplate, pgErr = migratePostgres(base) })
	if pgErr != nil {
		t.Fatal(pgErr)
	}
	return storetest.DatabaseFrom(t, pgTemplate)
}

// migratePostgres makes the template: a lasting database on the
// throwaway server, migrated and closed (a template takes no connections).
func migratePostgres(base string) (string, error) {
	ctx := context.Background()
	url, name, err := storetest.Lasting(ctx, base)
	if err != nil {
		return "", err
	}
	st, err := workspace.Open(ctx, workspace.Config{DatabaseURL: url})
	if err != nil {
		return "", err
	}
	return name, st.Close()
}
