package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"creditdash/internal/digest"
	workspace "creditdash/internal/store"
)

// startDigests builds the e-mail digest and starts its job queue on the
// workspace database: mail through SMTP_URL, or in demo mode without it
// into DATA_DIR/outbox; otherwise settings are kept and nothing is sent.
func startDigests(cfg config, ws *workspace.Store, service string, log *slog.Logger) (*digest.Service, error) {
	public := cfg.PublicURL
	if public == "" {
		// Mails have no request to take a host from.
		public = "http://" + cfg.ListenAddr
		log.Warn("digest: no PUBLIC_URL, so links in mails lead to " + public)
	}
	dc := digest.Config{Store: ws, DatabaseURL: cfg.DatabaseURL, Secret: cfg.SessionSecrets[0], PublicURL: public,
		Service: service, Tick: cfg.DigestTick, Roles: cfg.Roles, Log: log.With("component", "digest")}
	switch {
	case cfg.SMTPURL != "":
		s, err := digest.NewSMTP(cfg.SMTPURL, cfg.DigestFrom, nil)
		if err != nil {
			return nil, err
		}
		dc.Sender = s
	case cfg.demo():
		ob := &digest.Outbox{Dir: filepath.Join(cfg.DataDir, "outbox"), From: cfg.DigestFrom}
		dc.Sender, dc.Outbox = ob, ob
	}
	d := digest.New(dc)
	if err := d.Start(); err != nil {
		return nil, err
	}
	return d, nil
}

// stopDigests lets running jobs finish, briefly.
func stopDigests(d *digest.Service, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := d.Close(ctx); err != nil {
		log.Error("digest: stopping the job queue", "err", err)
	}
}
