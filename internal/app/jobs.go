package app

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"creditdash/internal/applications"
	"creditdash/internal/digest"
	"creditdash/internal/jobs"
	"creditdash/internal/webhooks"
)

// startJobs builds the work that runs without a browser and starts the
// one job queue it shares on the workspace database: the e-mail digest
// (mail through SMTPURL, or with Outbox into DataDir/outbox; with neither,
// settings are kept and nothing is sent) and, unless NoWebhooks, webhook
// deliveries. Close stops the dispatcher, then the queue, before the
// database, letting running jobs finish briefly.
func (a *App) startJobs(cfg Config, s Seams, log *slog.Logger) error {
	tick := cfg.DigestTick
	if tick <= 0 {
		tick = time.Minute
	}
	q := jobs.New(jobs.Config{Store: a.Store, DatabaseURL: cfg.DatabaseURL, Poll: min(tick, time.Second), Log: log.With("component", "jobs")})
	if err := a.buildDigests(cfg, s, log, q); err != nil {
		return err
	}
	// Credit applications mail through the digest's mailer, on the queue.
	links := cfg.MailURL
	if links == "" {
		links = cfg.PublicURL
	}
	a.Applications = applications.New(applications.Config{Store: a.Store, Mail: a.Digests, Jobs: q, Secret: cfg.SessionSecrets[0],
		PublicURL: links, Settings: cfg.Applications, Now: s.Now, Log: log.With("component", "applications")})
	if !cfg.NoWebhooks {
		a.Webhooks = webhooks.New(webhooks.Config{Store: a.Store, Jobs: q, AllowPrivate: cfg.WebhookAllowPrivate,
			Poll: s.WebhookPoll, RetryBase: s.WebhookRetryBase, Log: log.With("component", "webhooks"), Now: s.Now})
		a.Webhooks.Register()
	}
	if !a.Digests.Configured() && a.Webhooks == nil {
		return nil // nothing to run
	}
	if err := q.Start(); err != nil {
		return err
	}
	a.Jobs = q
	a.closers = append(a.closers, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := q.Close(ctx); err != nil {
			log.Error("jobs: stopping the job queue", "err", err)
		}
	})
	if a.Webhooks != nil {
		a.Webhooks.Start()
		a.closers = append(a.closers, a.Webhooks.Close)
	}
	return nil
}

// buildDigests builds the e-mail digest and adds its jobs to q.
func (a *App) buildDigests(cfg Config, s Seams, log *slog.Logger, q *jobs.Queue) error {
	links := cfg.MailURL
	if links == "" {
		links = cfg.PublicURL
	}
	dc := digest.Config{Store: a.Store, Secret: cfg.SessionSecrets[0], PublicURL: links,
		Service: cfg.Service, Tick: cfg.DigestTick, Team: a.Team, Now: s.Now, Log: log.With("component", "digest"),
		DigestMail: digestMail, VerifyMail: verifyMail}
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
	a.Digests = digest.New(dc)
	a.Digests.Register(q)
	return nil
}
