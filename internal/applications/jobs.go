package applications

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"creditdash/internal/digest"
	"creditdash/internal/store"
)

// The job queue's work for applications. Jobs carry ids only: each mail is
// composed from the store when it is sent, so no link (a secret) waits in
// the queue's table, and a job for something that changed meanwhile (a
// reference that answered, a revoked invitation) sends nothing.

// inviteArgs is an invitation's mail.
type inviteArgs struct {
	App int64 `json:"app"`
}

// Kind names the job.
func (inviteArgs) Kind() string { return "application_invite" }

// referenceArgs is a reference's ask (N 0) or its Nth reminder.
type referenceArgs struct {
	Reference int64 `json:"reference"`
	N         int   `json:"n"`
}

// Kind names the job.
func (referenceArgs) Kind() string { return "application_reference" }

// outcomeArgs is the outcome's mail to the applicant.
type outcomeArgs struct {
	App int64 `json:"app"`
}

// Kind names the job.
func (outcomeArgs) Kind() string { return "application_outcome" }

// sweepArgs is the periodic look for applicants not yet told.
type sweepArgs struct{}

// Kind names the job.
func (sweepArgs) Kind() string { return "application_sweep" }

type inviteWorker struct {
	river.WorkerDefaults[inviteArgs]
	s *Service
}

// Work sends the invitation, while its link still takes answers.
func (w *inviteWorker) Work(ctx context.Context, job *river.Job[inviteArgs]) error {
	app, err := w.s.store.ApplicationByID(ctx, job.Args.App)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !app.Open(w.s.now())) {
		return nil
	}
	if err != nil {
		return err
	}
	text := fmt.Sprintf("Hello,\n\nYou are invited to apply for trade credit for %s.\n\nFill in the application (it takes about ten minutes; you can save it and come back with the same link):\n%s\n\n",
		app.Company, w.s.ApplyURL(app))
	if app.Requested != nil {
		text += fmt.Sprintf("The amount discussed: %s.\n", Money(*app.Requested))
	}
	text += fmt.Sprintf("The link works until %s. Keep it to yourself: whoever has it can fill in the application.\n\nIf you did not expect this mail, ignore it.\n",
		app.ExpiresAt.UTC().Format("2 January 2006"))
	return w.s.mail.Send(ctx, digest.Message{To: app.Email, Subject: "Your credit application: " + subjectName(app.Company), Text: text, Tag: tagOf(app.ID)})
}

type referenceWorker struct {
	river.WorkerDefaults[referenceArgs]
	s *Service
}

// Work asks the reference (N 0) or reminds it, once each: not after it
// answered or its link expired. Each mail queues the next reminder,
// RemindEvery later, up to MaxReminders.
func (w *referenceWorker) Work(ctx context.Context, job *river.Job[referenceArgs]) error {
	n := job.Args.N
	var r store.Reference
	var due bool
	var err error
	if n == 0 {
		r, due, err = w.claimAsk(ctx, job.Args.Reference)
	} else {
		r, due, err = w.s.store.NoteReminder(ctx, job.Args.Reference, n)
	}
	if errors.Is(err, store.ErrNotFound) || (err == nil && !due) {
		return nil
	}
	if err != nil {
		return err
	}
	app, err := w.s.store.ApplicationByID(ctx, r.Application)
	if err != nil {
		return err
	}
	subject := "Trade reference for " + subjectName(applicantName(app))
	lead := fmt.Sprintf("%s named you (%s) as a %s reference in its application for trade credit.", applicantName(app), r.Name, r.Kind)
	if n > 0 {
		subject = "Reminder: " + subject
		lead = "A reminder: " + lead
	}
	text := fmt.Sprintf("Hello %s,\n\n%s\n\nFour short questions, about a minute, at this link (it works once, until %s):\n%s\n\nThank you.\n",
		r.Contact, lead, r.ExpiresAt.UTC().Format("2 January 2006"), w.s.ReferenceURL(r))
	if err := w.s.mail.Send(ctx, digest.Message{To: r.Email, Subject: subject, Text: text, Tag: tagOf(app.ID)}); err != nil {
		return err
	}
	next := r.AskedAt.Add(time.Duration(n+1) * w.s.cfg.RemindEvery)
	if n < w.s.cfg.MaxReminders && next.Before(r.ExpiresAt) {
		w.s.enqueue(ctx, referenceArgs{Reference: r.ID, N: n + 1}, &river.InsertOpts{ScheduledAt: next, UniqueOpts: river.UniqueOpts{ByArgs: true}})
	}
	return nil
}

// claimAsk reads the reference for its first mail: due while it has not
// answered and its link has not expired.
func (w *referenceWorker) claimAsk(ctx context.Context, id int64) (store.Reference, bool, error) {
	r, err := w.s.store.ReferenceByID(ctx, id)
	if err != nil {
		return r, false, err
	}
	return r, !r.Answered() && !r.Expired(w.s.now()) && r.Reminders == 0, nil
}

type outcomeWorker struct {
	river.WorkerDefaults[outcomeArgs]
	s *Service
}

// Work tells the applicant the outcome, once: approved with its limit,
// or declined (the team's reason stays the team's).
func (w *outcomeWorker) Work(ctx context.Context, job *river.Job[outcomeArgs]) error {
	app, err := w.s.store.ApplicationByID(ctx, job.Args.App)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if !app.NotifiedAt.IsZero() || (app.Status != store.AppApproved && app.Status != store.AppDeclined) {
		return nil
	}
	f := Parse(app.Answers)
	var text, subject string
	if app.Status == store.AppApproved {
		amount := ""
		if app.DecidedAmount != nil {
			amount = Money(*app.DecidedAmount)
		}
		subject = "Your credit application is approved"
		text = fmt.Sprintf("Hello %s,\n\nYour application %d for trade credit for %s is approved, with a credit limit of %s.\nYour account number with us: %s.\n\nThank you for applying.\n",
			f.ContactName, app.Number, applicantName(app), amount, app.Account)
	} else {
		subject = "Your credit application"
		text = fmt.Sprintf("Hello %s,\n\nThank you for your application %d for trade credit for %s. After review we are not able to offer credit at this time.\n\nYou may reply to this mail to discuss other terms, such as payment in advance.\n",
			f.ContactName, app.Number, applicantName(app))
	}
	if err := w.s.mail.Send(ctx, digest.Message{To: app.Email, Subject: subject, Text: text, Tag: tagOf(app.ID)}); err != nil {
		return err
	}
	return w.s.store.ToldApplicant(ctx, app.ID)
}

type sweepWorker struct {
	river.WorkerDefaults[sweepArgs]
	s *Service
}

// Work queues the outcome mail of applicants decided and not yet told:
// those decided on another replica whose queueing failed, say.
func (w *sweepWorker) Work(ctx context.Context, _ *river.Job[sweepArgs]) error {
	apps, err := w.s.store.ApplicationsToTell(ctx, 100)
	if err != nil {
		return err
	}
	for _, app := range apps {
		w.s.Decided(ctx, app)
	}
	return nil
}

// applicantName is the application's company, or its number when the
// applicant never said.
func applicantName(app store.Application) string {
	if app.Company != "" {
		return app.Company
	}
	return fmt.Sprintf("Application %d", app.Number)
}

// subjectName is a name as a subject line holds it: one line, its runs
// of spaces (line breaks typed into it among them) made one, clipped.
func subjectName(s string) string { return clip(strings.Join(strings.Fields(oneLine(s)), " "), 80) }

// tagOf names an application's mails in the demo outbox without its name.
func tagOf(id int64) string { return fmt.Sprintf("app%08x", uint32(id)) }

// Money writes an amount in whole units with thousands separators, as the
// mails and the public pages show it: 25000 -> "25,000".
func Money(v float64) string {
	n := int64(math.Round(v))
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return sign + s
}
