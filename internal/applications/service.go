package applications

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"creditdash/internal/digest"
	"creditdash/internal/jobs"
	"creditdash/internal/store"
)

// Defaults of the settings (docs/applications.md).
const (
	DefaultLinkLife      = 30 * 24 * time.Hour
	DefaultReferenceLife = 14 * 24 * time.Hour
	DefaultRemindEvery   = 3 * 24 * time.Hour
	DefaultMaxReminders  = 3
	// DefaultSweep is how often the queue looks for applicants not yet
	// told their outcome (a mail queued after the decision normally has).
	DefaultSweep = time.Minute
)

// Settings are what a deployment may change (docs/applications.md); a
// zero value is the default.
type Settings struct {
	// LinkLife is how long an invitation's link works; ReferenceLife a
	// reference's; RemindEvery how long after the ask (and each reminder)
	// an unanswered reference is reminded, at most MaxReminders times.
	LinkLife, ReferenceLife, RemindEvery time.Duration
	MaxReminders                         int
	// Sweep is how often the queue looks for applicants to tell.
	Sweep time.Duration
	// MinFill is the least time from opening the form to sending it: a
	// bot's speed (0: none).
	MinFill time.Duration
	// PerAddress bounds the public pages' requests from one address a
	// minute, PerLink the posts to one link in ten minutes.
	PerAddress, PerLink int
}

// Defaults of the public pages' limits.
const (
	DefaultPerAddress = 120
	DefaultPerLink    = 60
)

// Config is what a Service needs; internal/app fills it.
type Config struct {
	Store *store.Store
	// Mail sends through the digest's mailer; Jobs is the job queue the
	// mails and reminders run on.
	Mail *digest.Service
	Jobs *jobs.Queue
	// Secret signs the links (the session secret).
	Secret string
	// PublicURL starts every link handed out (scheme, host, port).
	PublicURL string
	Settings
	Log *slog.Logger
	Now func() time.Time
}

// Service invites, keeps answers, and mails applicants and references.
type Service struct {
	cfg    Config
	store  *store.Store
	mail   *digest.Service
	jobs   *jobs.Queue
	signer *Signer
	public string
	log    *slog.Logger
	now    func() time.Time
}

// New builds the service and, when e-mail is configured, registers its
// jobs on the queue (before the queue starts).
func New(cfg Config) *Service {
	if cfg.LinkLife <= 0 {
		cfg.LinkLife = DefaultLinkLife
	}
	if cfg.ReferenceLife <= 0 {
		cfg.ReferenceLife = DefaultReferenceLife
	}
	if cfg.RemindEvery <= 0 {
		cfg.RemindEvery = DefaultRemindEvery
	}
	if cfg.MaxReminders <= 0 {
		cfg.MaxReminders = DefaultMaxReminders
	}
	if cfg.Sweep <= 0 {
		cfg.Sweep = DefaultSweep
	}
	if cfg.PerAddress <= 0 {
		cfg.PerAddress = DefaultPerAddress
	}
	if cfg.PerLink <= 0 {
		cfg.PerLink = DefaultPerLink
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Service{cfg: cfg, store: cfg.Store, mail: cfg.Mail, jobs: cfg.Jobs, signer: NewSigner(cfg.Secret),
		public: strings.TrimRight(cfg.PublicURL, "/"), log: cfg.Log, now: cfg.Now}
	if s.Mails() && s.jobs != nil {
		w := s.jobs.Workers()
		river.AddWorker(w, &inviteWorker{s: s})
		river.AddWorker(w, &referenceWorker{s: s})
		river.AddWorker(w, &outcomeWorker{s: s})
		river.AddWorker(w, &sweepWorker{s: s})
		s.jobs.AddPeriodic(river.NewPeriodicJob(river.PeriodicInterval(cfg.Sweep), func() (river.JobArgs, *river.InsertOpts) {
			return sweepArgs{}, nil
		}, &river.PeriodicJobOpts{RunOnStart: true}))
	}
	return s
}

// Settings are the settings in force.
func (s *Service) Settings() Settings { return s.cfg.Settings }

// Signer is the links' signer, for the public pages.
func (s *Service) Signer() *Signer { return s.signer }

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }

// Store is the store the service keeps applications in.
func (s *Service) Store() *store.Store { return s.store }

// Mails tells whether e-mail is configured (else links are copied by hand).
func (s *Service) Mails() bool { return s.mail != nil && s.mail.Configured() && s.jobs != nil }

// ApplyURL is the absolute address of an application's link.
func (s *Service) ApplyURL(app store.Application) string {
	return s.public + "/apply/" + s.signer.ApplicationLink(app)
}

// TeamURL is the absolute address of the team's public link.
func (s *Service) TeamURL(service, nonce string) string {
	return s.public + "/apply/" + s.signer.TeamLink(service, nonce)
}

// ReferenceURL is the absolute address of a reference's form.
func (s *Service) ReferenceURL(r store.Reference) string {
	return s.public + "/reference/" + s.signer.ReferenceLink(r)
}

// Invite records the invitation and queues its mail; mailed is false
// when e-mail is not configured (the page shows the link to copy).
func (s *Service) Invite(ctx context.Context, a store.Analyst, inv store.Invitation) (app store.Application, mailed bool, err error) {
	if !ValidEmail(strings.TrimSpace(inv.Email)) {
		return app, false, &store.ValidationError{Field: "email", Message: "not an e-mail address such as name@example.com"}
	}
	inv.Company = oneLine(inv.Company)
	if inv.Life <= 0 {
		inv.Life = s.cfg.LinkLife
	}
	if app, err = s.store.Invite(ctx, a, inv); err != nil {
		return app, false, err
	}
	return app, s.enqueue(ctx, inviteArgs{App: app.ID}, nil), nil
}

// StartPublic makes a new application from the team's public link.
func (s *Service) StartPublic(ctx context.Context, l Link) (store.Application, error) {
	return s.store.StartPublicApplication(ctx, l.Team, l.Nonce, s.cfg.LinkLife)
}

// Submitted queues the mail to each of the application's references.
func (s *Service) Submitted(ctx context.Context, app store.Application) {
	for _, r := range app.References {
		s.enqueue(ctx, referenceArgs{Reference: r.ID}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}})
	}
}

// Decided queues the outcome mail of a decided application (and is
// harmless for one still waiting: the job finds nothing to tell yet).
func (s *Service) Decided(ctx context.Context, app store.Application) {
	if app.Status == store.AppApproved || app.Status == store.AppDeclined {
		s.enqueue(ctx, outcomeArgs{App: app.ID}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}})
	}
}

// RequestDecided queues the outcome mail of the application a limit
// request decided, if any.
func (s *Service) RequestDecided(ctx context.Context, a store.Analyst, request int64) {
	app, err := s.store.ApplicationForRequest(ctx, a, request)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.Warn("applications: the application of a decided request", "err", err)
		}
		return
	}
	s.Decided(ctx, app)
}

// enqueue queues a job, true when queued; without e-mail nothing is, and
// a failure is logged (the sweep tells applicants later; a reference's
// mail can be sent again from the application's page).
func (s *Service) enqueue(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) bool {
	if !s.Mails() {
		return false
	}
	if _, err := s.jobs.Insert(ctx, args, opts); err != nil {
		s.log.Error("applications: queueing a mail", "kind", args.Kind(), "err", err)
		return false
	}
	return true
}
