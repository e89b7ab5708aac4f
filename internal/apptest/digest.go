package apptest

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"creditdash/internal/digest"
	"creditdash/internal/roles"
	workspace "creditdash/internal/store"
)

// DigestFrom is the digests' sender in tests.
const DigestFrom = "CreditDash <digest@creditdash.test>"

// PublicURL is where mails' links lead when Options.PublicURL is empty.
const PublicURL = "https://credit.example.test"

// startDigests builds the digest as cmd/web's startDigests does, stopped
// when the test ends.
func startDigests(t testing.TB, opts Options, ws *workspace.Store, dataDir string, teamRoles *roles.Table, log *slog.Logger) *digest.Service {
	t.Helper()
	public := opts.PublicURL
	if public == "" {
		public = PublicURL
	}
	tick := opts.DigestTick
	if tick == 0 {
		tick = 50 * time.Millisecond
	}
	service := WorkspaceService
	if opts.ServiceName != "" {
		service = opts.ServiceName
	}
	dc := digest.Config{Store: ws, DatabaseURL: opts.DatabaseURL, Secret: TestSecret, PublicURL: public,
		Service: service, Tick: tick, Roles: teamRoles, Now: opts.Now, Log: log}
	switch {
	case opts.SMTPURL != "":
		s, err := digest.NewSMTP(opts.SMTPURL, DigestFrom, opts.SMTPRoots)
		if err != nil {
			t.Fatal(err)
		}
		dc.Sender = s
	case opts.Outbox:
		ob := &digest.Outbox{Dir: filepath.Join(dataDir, "outbox"), From: DigestFrom}
		dc.Sender, dc.Outbox = ob, ob
	}
	d := digest.New(dc)
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = d.Close(ctx)
	})
	return d
}
