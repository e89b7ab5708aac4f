package digest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"creditdash/internal/jobs"
	"creditdash/internal/roles"
	"creditdash/internal/store"
	"creditdash/internal/team"
)

// ErrNotConfigured: no SMTP_URL (and not demo mode), so nothing is sent.
var ErrNotConfigured = errors.New("digest: e-mail is not configured on this dashboard (SMTP_URL)")

// ErrNotVerified: a digest was asked for before the address was verified.
var ErrNotVerified = errors.New("digest: the e-mail address is not verified yet: follow the link sent to it first")

// Config is what a Service needs; cmd/web and apptest fill it.
type Config struct {
	Store *store.Store
	// Sender delivers mail: SMTP, or the outbox in demo mode; nil means
	// e-mail is not configured (nothing is queued or sent).
	Sender Sender
	// Outbox, in demo mode without SMTP, is the folder listed on the
	// settings page (the Sender writing into it).
	Outbox *Outbox
	// Secret signs the verification and unsubscribe links (the session
	// secret: every replica has the same).
	Secret string
	// PublicURL starts every link in a mail (scheme, host, port).
	PublicURL string
	// Service names the analysts' service in workspace keys.
	Service string
	// Tick is how often due digests are looked for; zero means a minute.
	Tick time.Duration
	// Team is the team's membership: who may decide, and within what.
	Team *team.Directory
	// DigestMail and VerifyMail word and render the two mails; the wiring
	// sets them (views shapes, templates render), so that this package
	// holds data and schedules, not pages.
	DigestMail func(Content, Links) (Parts, error)
	VerifyMail func(Verification) (Parts, error)
	Log        *slog.Logger
	Now        func() time.Time
}

// Links are the absolute addresses a digest mail carries: Public starts
// every page's link; Unsubscribe works without signing in.
type Links struct{ Public, Unsubscribe string }

// Verification is what the verification mail says: who asked, the link
// that confirms the address, and for how many hours it works.
type Verification struct {
	User, Link string
	Hours      int
}

// Parts are a rendered mail: its subject, plain text and HTML.
type Parts struct{ Subject, Text, HTML string }

// Service schedules, builds and sends digests; handlers and jobs share it.
type Service struct {
	store  *store.Store
	sender Sender
	outbox *Outbox
	signer *Signer
	public string
	team   *team.Directory
	log    *slog.Logger
	now    func() time.Time
	q      *jobs.Queue
	cfg    Config
}

// New builds the service; Register adds its jobs to the queue.
func New(cfg Config) *Service {
	s := &Service{store: cfg.Store, sender: cfg.Sender, outbox: cfg.Outbox, signer: NewSigner(cfg.Secret),
		public: strings.TrimRight(cfg.PublicURL, "/"), team: cfg.Team, log: cfg.Log, now: cfg.Now, cfg: cfg}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.cfg.Tick <= 0 {
		s.cfg.Tick = time.Minute
	}
	return s
}

// Register adds the digest's workers and its periodic look for due
// digests to the job queue, before the queue starts. Without a Sender
// there is nothing to run and nothing is added.
func (s *Service) Register(q *jobs.Queue) {
	if s.sender == nil {
		return
	}
	s.q = q
	river.AddWorker(q.Workers(), &tickWorker{s: s})
	river.AddWorker(q.Workers(), &sendWorker{s: s})
	river.AddWorker(q.Workers(), &verifyWorker{s: s})
	tick := s.cfg.Tick
	q.AddPeriodic(river.NewPeriodicJob(river.PeriodicInterval(tick),
		func() (river.JobArgs, *river.InsertOpts) {
			// Only the leader enqueues ticks; unique by period as well
			// where River allows it (a second or more), so a change of
			// leader does not double one.
			if tick >= time.Second {
				return tickArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: tick}}
			}
			return tickArgs{}, nil
		}, &river.PeriodicJobOpts{RunOnStart: true}))
}

// Send delivers a message now, for another part's worker on the job queue
// (credit applications; River retries it when it fails).
// ErrNotConfigured without e-mail.
func (s *Service) Send(ctx context.Context, m Message) error {
	if s.sender == nil {
		return ErrNotConfigured
	}
	return s.sender.Send(ctx, m)
}

// Configured tells whether mail can be sent (SMTP_URL, or the demo outbox).
func (s *Service) Configured() bool { return s.sender != nil }

// Outbox names, newest first, the analyst's mails in the demo outbox, at
// most 20; nil when there is no outbox.
func (s *Service) Outbox(a store.Analyst) []string {
	if s.outbox == nil {
		return nil
	}
	files, err := s.outbox.list(tag(a))
	if err != nil {
		s.log.Warn("digest: reading the outbox", "err", err)
	}
	return files[:min(len(files), 20)]
}

// OutboxDir is the demo outbox's folder ("" without one).
func (s *Service) OutboxDir() string {
	if s.outbox == nil {
		return ""
	}
	return s.outbox.Dir
}

// tag names an analyst in outbox file names without spelling out who.
func tag(a store.Analyst) string {
	h := sha256.Sum256([]byte(a.Service + "\x00" + a.User))
	return hex.EncodeToString(h[:6])
}

// authority is what the user may decide within (0: not a decider).
func (s *Service) authority(ctx context.Context, user string) float64 {
	if s.team == nil {
		return 0
	}
	as := s.team.Roles(ctx).Of(user)
	if !as.Role.May(roles.Decide) {
		return 0
	}
	return float64(as.Authority)
}

// Preview is exactly what the analyst's next digest holds now: since the
// last one, or over the last period when none was sent.
func (s *Service) Preview(ctx context.Context, a store.Analyst) (Content, error) {
	set, err := s.store.Digest(ctx, a)
	if err != nil {
		return Content{}, err
	}
	now := s.now()
	since := set.LastSent
	if since.IsZero() {
		since = now.AddDate(0, 0, -7)
		if set.Frequency == store.DigestDaily {
			since = now.AddDate(0, 0, -1)
		}
	}
	return Build(ctx, s.store, a, s.authority(ctx, a.User), since, now)
}

// Compose makes the digest mail to email: plain text and HTML, with an
// unsubscribe link that works without signing in.
func (s *Service) Compose(c Content, email string) Message {
	unsub := s.public + "/digest/unsubscribe?t=" + url.QueryEscape(s.signer.Sign(KindUnsubscribe, c.Analyst, email, s.now().Add(UnsubscribeLinkLife)))
	p, err := s.cfg.DigestMail(c, Links{Public: s.public, Unsubscribe: unsub})
	if err != nil {
		s.log.Error("digest: rendering the mail", "err", err)
	}
	return Message{To: email, Subject: p.Subject, Text: p.Text, HTML: p.HTML, Unsubscribe: unsub, Tag: tag(c.Analyst)}
}

// PublicURL starts every link of a mail (no trailing slash); the preview
// page's links start with it too, as the mail's do.
func (s *Service) PublicURL() string { return s.public }

// verification is the mail that proves the address reaches the analyst.
func (s *Service) verification(a store.Analyst, email string) Message {
	link := s.public + "/digest/verify?t=" + url.QueryEscape(s.signer.Sign(KindVerify, a, email, s.now().Add(VerifyLinkLife)))
	p, err := s.cfg.VerifyMail(Verification{User: a.User, Link: link, Hours: int(VerifyLinkLife / time.Hour)})
	if err != nil {
		s.log.Error("digest: rendering the mail", "err", err)
	}
	return Message{To: email, Subject: p.Subject, Text: p.Text, HTML: p.HTML, Tag: tag(a)}
}

// Settings are the analyst's stored digest settings.
func (s *Service) Settings(ctx context.Context, a store.Analyst) (store.DigestSettings, error) {
	return s.store.Digest(ctx, a)
}

// Save sets the address and frequency; a new, unverified address is sent
// its verification link (at most one a minute: ErrTooSoon is not an
// error here, the page offers to send it again).
func (s *Service) Save(ctx context.Context, a store.Analyst, email, frequency string) (store.DigestSettings, error) {
	set, err := s.store.SaveDigest(ctx, a, email, frequency)
	if err != nil || set.Verified || s.sender == nil {
		return set, err
	}
	if err := s.RequestVerification(ctx, a); err != nil && !errors.Is(err, store.ErrTooSoon) {
		return set, err
	}
	return s.store.Digest(ctx, a)
}

// RequestVerification queues a verification mail to the analyst's
// address: store.ErrTooSoon within a minute of the last one.
func (s *Service) RequestVerification(ctx context.Context, a store.Analyst) error {
	if s.sender == nil {
		return ErrNotConfigured
	}
	email, err := s.store.ClaimVerification(ctx, a)
	if err != nil {
		return err
	}
	_, err = s.q.Insert(ctx, verifyArgs{Service: a.Service, User: a.User, Email: email, At: s.now().UnixMicro()}, &river.InsertOpts{MaxAttempts: maxAttempts})
	return err
}

// SendNow queues a digest for now; queued is false when one was already
// queued this minute.
func (s *Service) SendNow(ctx context.Context, a store.Analyst) (queued bool, err error) {
	if s.sender == nil {
		return false, ErrNotConfigured
	}
	set, err := s.store.Digest(ctx, a)
	if err != nil {
		return false, err
	}
	if !set.Verified {
		return false, ErrNotVerified
	}
	dup, err := s.q.Insert(ctx, sendArgs{Service: a.Service, User: a.User, Period: "now " + s.now().UTC().Format("2006-01-02T15:04")}, uniqueSend)
	return !dup, err
}

// Verify checks a verification link and marks its address verified.
func (s *Service) Verify(ctx context.Context, token string) error {
	a, email, err := s.signer.Check(KindVerify, token, s.now())
	if err != nil {
		return err
	}
	if err := s.store.VerifyDigestEmail(ctx, a, email); errors.Is(err, store.ErrNotFound) {
		return ErrBadLink
	} else if err != nil {
		return err
	}
	return nil
}

// CheckLink tells whether a link token of kind is valid now.
func (s *Service) CheckLink(kind, token string) error {
	_, _, err := s.signer.Check(kind, token, s.now())
	return err
}

// Unsubscribe checks an unsubscribe link and turns the digest off, when
// the digest still goes to the address the link was sent to;
// ErrEarlierAddress otherwise.
func (s *Service) Unsubscribe(ctx context.Context, token string) error {
	a, email, err := s.signer.Check(KindUnsubscribe, token, s.now())
	if err != nil {
		return err
	}
	if err := s.store.UnsubscribeDigest(ctx, a, email); errors.Is(err, store.ErrNotFound) {
		return ErrEarlierAddress
	} else if err != nil {
		return err
	}
	return nil
}
