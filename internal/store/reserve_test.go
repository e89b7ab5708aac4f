package store

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fullDisk mounts a small file system of its own for the test (root only;
// skipped elsewhere) and returns its directory.
func fullDisk(t *testing.T, size string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("no small file system to fill (needs root): %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	return dir
}

// fill writes a file in dir until the disk is full.
func fillDisk(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 64<<10)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling the disk: %v", err)
			}
			break
		}
	}
	// Whatever room is left in smaller pieces goes too.
	for {
		if _, err := f.Write(block[:512]); err != nil {
			return
		}
	}
}

// On a full disk an analyst can still delete their notes and their whole
// workspace: the reserve kept beside the database is given back to the
// delete.
func TestDeletingOnAFullDisk(t *testing.T) {
	dir := fullDisk(t, "32m")
	s := openTest(t, SQLite, Config{DataDir: dir})
	if fi, err := os.Stat(filepath.Join(dir, ReserveName)); err != nil || fi.Size() < reserveBytes {
		t.Fatalf("reserve: %v, %v; want %d bytes kept", fi, err, reserveBytes)
	}
	ctx := t.Context()
	text := strings.Repeat("n", MaxNoteLen)
	var first Note
	for i := range 400 {
		n, err := s.AddNote(ctx, alice, int32(1001+i%7), text)
		must(t, err)
		if i == 0 {
			first = n
		}
	}
	if _, err := s.w.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	fillDisk(t, dir)
	if _, err := s.AddNote(ctx, alice, 1001, text); !diskFull(err) {
		t.Fatalf("a note on the full disk: %v, want the disk full", err)
	}
	if err := s.DeleteNote(ctx, alice, first.ID); err != nil {
		t.Errorf("deleting a note on a full disk: %v", err)
	}
	if err := s.DeleteAnalyst(ctx, alice); err != nil {
		t.Fatalf("deleting the workspace on a full disk: %v", err)
	}
	if n := rowsOf(t, s, alice, "notes"); n != 0 {
		t.Errorf("%d notes left after deleting the workspace", n)
	}
}
