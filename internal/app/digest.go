package app

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"creditdash/internal/digest"
)

// startDigests builds the e-mail digest and starts its job queue on the
// workspace database: mail through SMTPURL, or with Outbox into
// DataDir/outbox; with neither, settings are kept and nothing is sent.
// Close stops the queue before the database, letting running jobs finish
// briefly.
func (a *App) startDigests(cfg Config, s Seams, log *slog.Logger) error {
	links := cfg.MailURL
	if links == "" {
		links = cfg.PublicURL
	}
	dc := digest.Config{Store: a.Store, DatabaseURL: cfg.DatabaseURL, Secret: cfg.SessionSecrets[0], PublicURL: links,
		Service: cfg.Service, Tick: cfg.DigestTick, Roles: cfg.Roles, Now: s.Now, Log: log.With("component", "digest")}
	switch {
	case cfg.SMTPURL != "":
		sender, err := digest.NewSMTP(cfg.SMTPURL, cfg.DigestFrom, s.SMTPRoots)
		if err != nil {
			return err
		}
		dc.Sender = sender
	case cfg.Outbox:
		ob := &digest.Outbox{Dir: filepath.Join(cfg.DataDir, "outbox"), From: cfg.DigestFrom}
		dc.Sender, dc.Outbox = ob, ob
	}
	d := digest.New(dc)
	if err := d.Start(); err != nil {
		return err
	}
	a.Digests = d
	a.closers = append(a.closers, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := d.Close(ctx); err != nil {
			log.Error("digest: stopping the job queue", "err", err)
		}
	})
	return nil
}
