package store

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// jump moves the test clock on by d.
func (c *clock) jump(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// eachEngineClock is eachEngine with the store's clock in the test's hands.
func eachEngineClock(t *testing.T, fn func(t *testing.T, s *Store, c *clock)) {
	t.Helper()
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			c := newClock()
			fn(t, openTest(t, e, Config{Now: c.Now}), c)
		})
	}
}

// TestUploadWaits: a kept file is read back by its token by the same
// analyst only, a new one replaces it, a dropped or expired one is gone.
func TestUploadWaits(t *testing.T) {
	eachEngineClock(t, func(t *testing.T, s *Store, c *clock) {
		ctx := t.Context()
		data := []byte("account,balance\r\nA-1,\"1,000.00\"\r\n\xff\x00")
		up, err := s.KeepUpload(ctx, alice, "aging\x00.csv", data)
		must(t, err)
		if len(up.Token) != 32 || up.Name != "aging.csv" {
			t.Fatalf("KeepUpload = %q %q", up.Token, up.Name)
		}
		got, err := s.PendingUpload(ctx, alice, up.Token)
		must(t, err)
		if !bytes.Equal(got.Data, data) || got.Name != "aging.csv" {
			t.Fatalf("PendingUpload = %q %q, want the bytes kept", got.Name, got.Data)
		}
		for _, tc := range []struct {
			who   Analyst
			token string
		}{{bob, up.Token}, {aliceElse, up.Token}, {alice, ""}, {alice, "0123"}} {
			_, err := s.PendingUpload(ctx, tc.who, tc.token)
			wantErr(t, tc.who.User+" "+tc.token, err, ErrNotFound)
		}
		next, err := s.KeepUpload(ctx, alice, "second.csv", []byte("x"))
		must(t, err)
		_, err = s.PendingUpload(ctx, alice, up.Token)
		wantErr(t, "the replaced upload", err, ErrNotFound)
		must(t, s.DropUpload(ctx, alice))
		_, err = s.PendingUpload(ctx, alice, next.Token)
		wantErr(t, "the dropped upload", err, ErrNotFound)

		late, err := s.KeepUpload(ctx, bob, "late.csv", []byte("y"))
		must(t, err)
		c.jump(UploadLife + time.Minute)
		_, err = s.PendingUpload(ctx, bob, late.Token)
		wantErr(t, "the expired upload", err, ErrNotFound)
		// The next keep clears the expired rows away.
		_, err = s.KeepUpload(ctx, alice, "third.csv", []byte("z"))
		must(t, err)
		if n := uploadRows(t, s, bob.Service); n != 1 {
			t.Errorf("%d uploads stored after an expired one, want 1", n)
		}
		// Deleting the workspace deletes the waiting file.
		must(t, s.DeleteAnalyst(ctx, alice))
		if n := uploadRows(t, s, alice.Service); n != 0 {
			t.Errorf("%d uploads stored after DeleteAnalyst, want 0", n)
		}
	})
}

// TestUploadsBoundedPerTeam: past MaxTeamUploads analysts, or the bytes
// bound, the team's oldest files go, never the newest.
func TestUploadsBoundedPerTeam(t *testing.T) {
	const bound = 4096
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			uploadsBounded(t, openTest(t, e, Config{UploadBytes: bound}), bound)
		})
	}
}

// uploadsBounded is TestUploadsBoundedPerTeam on one engine.
func uploadsBounded(t *testing.T, s *Store, bound int) {
	ctx := t.Context()
	var first Upload
	for i := range MaxTeamUploads + 3 {
		a := Analyst{Service: alice.Service, User: fmt.Sprintf("analyst%d", i)}
		up, err := s.KeepUpload(ctx, a, "f.csv", []byte("a,b\n"))
		must(t, err)
		if i == 0 {
			first = up
		}
	}
	if n := uploadRows(t, s, alice.Service); n != MaxTeamUploads {
		t.Errorf("%d uploads kept, want %d", n, MaxTeamUploads)
	}
	_, err := s.PendingUpload(ctx, Analyst{Service: alice.Service, User: "analyst0"}, first.Token)
	wantErr(t, "the oldest upload past the bound", err, ErrNotFound)
	// Bytes: two files of more than half the bound leave the newest.
	big := bytes.Repeat([]byte("1"), bound/2+1)
	_, err = s.KeepUpload(ctx, alice, "big1.csv", big)
	must(t, err)
	up, err := s.KeepUpload(ctx, bob, "big2.csv", big)
	must(t, err)
	if n := uploadRows(t, s, alice.Service); n != 1 {
		t.Errorf("%d uploads kept past the bytes bound, want 1", n)
	}
	if _, err := s.PendingUpload(ctx, bob, up.Token); err != nil {
		t.Errorf("the newest upload: %v", err)
	}
	_, err = s.KeepUpload(ctx, alice, "huge.csv", make([]byte, bound+1))
	wantInvalid(t, "a file over the bound", err, "file")
}

// uploadRows counts the team's stored uploads.
func uploadRows(t *testing.T, s *Store, service string) int {
	t.Helper()
	var n int
	must(t, s.r.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM pending_uploads WHERE service = $1", service).Scan(&n))
	return n
}

// TestUploadKeptPacked: a 50,000-row CSV waits deflated, a fraction of its
// size, and reads back byte for byte; a stored file that does not inflate
// to its size (one kept before files were packed) reads as gone.
func TestUploadKeptPacked(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		var b bytes.Buffer
		b.WriteString("account,name,balance\n")
		for i := range 50000 {
			fmt.Fprintf(&b, "C%06d,Customer %d Inc,\"%d.%02d\"\n", i, i, i*37%100000, i%100)
		}
		up, err := s.KeepUpload(ctx, alice, "aging.csv", b.Bytes())
		must(t, err)
		var stored, size int64
		must(t, s.r.QueryRowContext(ctx, "SELECT LENGTH(data), size FROM pending_uploads WHERE token = $1", up.Token).Scan(&stored, &size))
		if size != int64(b.Len()) || stored > size/3 {
			t.Errorf("kept %d bytes for a file of %d (size %d), want it packed", stored, b.Len(), size)
		}
		got, err := s.PendingUpload(ctx, alice, up.Token)
		must(t, err)
		if !bytes.Equal(got.Data, b.Bytes()) {
			t.Fatalf("read back %d bytes, not the file's %d", len(got.Data), b.Len())
		}
		_, err = s.w.ExecContext(ctx, "UPDATE pending_uploads SET data = $1 WHERE token = $2", []byte("account,balance\nA-1,10\n"), up.Token)
		must(t, err)
		_, err = s.PendingUpload(ctx, alice, up.Token)
		wantErr(t, "a file kept unpacked", err, ErrNotFound)
	})
}
