package store

import (
	"context"
	"database/sql"
	"errors"
	"net/mail"
	"strings"
	"time"
)

// Digest frequencies: off, every day, every week on Monday.
const (
	DigestOff    = "off"
	DigestDaily  = "daily"
	DigestWeekly = "weekly"
)

// MaxEmailLen is the longest address accepted (RFC 5321's path limit).
const MaxEmailLen = 254

// VerifyEvery is how often one analyst may be sent a verification mail.
const VerifyEvery = time.Minute

// ErrTooSoon: a verification mail went to this analyst less than
// VerifyEvery ago.
var ErrTooSoon = errors.New("store: a verification mail was sent less than a minute ago; wait a minute before asking again")

// DigestSettings are an analyst's digest settings; the zero value is
// "never set up".
type DigestSettings struct {
	Email string
	// Verified tells whether Email was confirmed through its link.
	Verified   bool
	VerifiedAt time.Time
	Frequency  string
	// LastSent is when the last digest went out (zero: never); LastPeriod
	// the scheduled period it was for.
	LastSent   time.Time
	LastPeriod string
	// FailedAt and Failure are the last failed send since the last
	// success (zero and "" when none).
	FailedAt time.Time
	Failure  string
	// VerifySent is when the last verification mail was asked for.
	VerifySent time.Time
}

// Subscribed tells whether digests go out: a verified address and a
// frequency other than off.
func (d DigestSettings) Subscribed() bool {
	return d.Verified && d.Email != "" && d.Frequency != "" && d.Frequency != DigestOff
}

// CheckEmail parses an address as RFC 5322 does and accepts only a bare
// address of at most MaxEmailLen characters; it returns the address.
func CheckEmail(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	switch {
	case raw == "":
		return "", invalid("email", "enter an e-mail address")
	case len(raw) > MaxEmailLen:
		return "", invalid("email", "an e-mail address has at most %d characters", MaxEmailLen)
	}
	addr, err := mail.ParseAddress(raw)
	if err != nil || addr.Name != "" || addr.Address != raw {
		return "", invalid("email", "this is not an e-mail address such as name@example.com")
	}
	return addr.Address, nil
}

const digestColumns = `email, verified_email, verified_at, frequency, verify_sent_at, last_sent_at, last_period, failed_at, failure`

func scanDigest(row interface{ Scan(...any) error }) (DigestSettings, error) {
	var d DigestSettings
	var verified string
	var verifiedAt, verifySent, lastSent, failedAt int64
	err := row.Scan(&d.Email, &verified, &verifiedAt, &d.Frequency, &verifySent, &lastSent, &d.LastPeriod, &failedAt, &d.Failure)
	d.Verified = d.Email != "" && verified == d.Email
	d.VerifiedAt, d.VerifySent, d.LastSent, d.FailedAt = stampTime(verifiedAt), stampTime(verifySent), stampTime(lastSent), stampTime(failedAt)
	return d, err
}

// stampTime is fromStamp with 0 as the zero time ("never").
func stampTime(us int64) time.Time {
	if us == 0 {
		return time.Time{}
	}
	return fromStamp(us)
}

// Digest reads the analyst's digest settings; never set up is the zero
// value with frequency off.
func (s *Store) Digest(ctx context.Context, a Analyst) (DigestSettings, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return DigestSettings{}, err
	}
	d, err := scanDigest(s.r.QueryRowContext(ctx, "SELECT "+digestColumns+" FROM digest_settings WHERE analyst_id = "+analystID, a.Service, a.User))
	if errors.Is(err, sql.ErrNoRows) {
		return DigestSettings{Frequency: DigestOff}, nil
	}
	return d, wrap("digest settings", err)
}

// SaveDigest sets the analyst's address and frequency. A changed address
// is unverified until its link is followed. Bad input is a
// *ValidationError on "email" or "frequency".
func (s *Store) SaveDigest(ctx context.Context, a Analyst, email, frequency string) (DigestSettings, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if frequency != DigestOff && frequency != DigestDaily && frequency != DigestWeekly {
		return DigestSettings{}, invalid("frequency", "choose off, daily or weekly")
	}
	email, err := CheckEmail(email)
	if err != nil {
		return DigestSettings{}, err
	}
	var d DigestSettings
	err = s.write(ctx, a, "save digest", func(tx *sql.Tx, id int64) error {
		now := s.stamp()
		if _, err := tx.ExecContext(ctx, `INSERT INTO digest_settings (analyst_id, email, verified_email, verified_at, frequency,
			verify_sent_at, last_sent_at, last_period, failed_at, failure, updated_at) VALUES ($1, $2, '', 0, $3, 0, 0, '', 0, '', $4)
			ON CONFLICT (analyst_id) DO UPDATE SET email = excluded.email, frequency = excluded.frequency, updated_at = excluded.updated_at`,
			id, email, frequency, now); err != nil {
			return err
		}
		d, err = scanDigest(tx.QueryRowContext(ctx, "SELECT "+digestColumns+" FROM digest_settings WHERE analyst_id = $1", id))
		return err
	})
	return d, err
}

// ClaimVerification records that a verification mail goes to the
// analyst's current address now, or returns ErrTooSoon when one went less
// than VerifyEvery ago (checked and set in one statement, so two replicas
// cannot both send one), or ErrNotFound with no address set.
func (s *Store) ClaimVerification(ctx context.Context, a Analyst) (email string, err error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	err = s.write(ctx, a, "claim verification", func(tx *sql.Tx, id int64) error {
		now := s.stamp()
		err := tx.QueryRowContext(ctx, `UPDATE digest_settings SET verify_sent_at = $2 WHERE analyst_id = $1 AND email <> ''
			AND verify_sent_at <= $3 RETURNING email`, id, now, now-VerifyEvery.Microseconds()).Scan(&email)
		if errors.Is(err, sql.ErrNoRows) {
			var n int
			if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM digest_settings WHERE analyst_id = $1 AND email <> ''", id).Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				return ErrNotFound
			}
			return ErrTooSoon
		}
		return err
	})
	return email, err
}

// VerifyDigestEmail marks email verified when it is still the analyst's
// address; ErrNotFound otherwise (changed since the link was sent).
func (s *Store) VerifyDigestEmail(ctx context.Context, a Analyst, email string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.write(ctx, a, "verify digest address", func(tx *sql.Tx, id int64) error {
		r, err := tx.ExecContext(ctx, `UPDATE digest_settings SET verified_email = email, verified_at = $3
			WHERE analyst_id = $1 AND email = $2`, id, email, s.stamp())
		if err != nil {
			return err
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// UnsubscribeDigest turns the analyst's digest off when email is still
// its address: a link from a mail to an earlier address must not turn off
// the digest that now goes to another (ErrNotFound then, and nothing
// changes).
func (s *Store) UnsubscribeDigest(ctx context.Context, a Analyst, email string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.write(ctx, a, "unsubscribe digest", func(tx *sql.Tx, id int64) error {
		r, err := tx.ExecContext(ctx, `UPDATE digest_settings SET frequency = $2, updated_at = $3 WHERE analyst_id = $1 AND email = $4`,
			id, DigestOff, s.stamp(), email)
		if err != nil {
			return err
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// DigestSent records a digest sent at the current time; period, when not
// "", is the scheduled period it was for. A failure noted before is
// cleared.
func (s *Store) DigestSent(ctx context.Context, a Analyst, period string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.write(ctx, a, "digest sent", func(tx *sql.Tx, id int64) error {
		_, err := tx.ExecContext(ctx, `UPDATE digest_settings SET last_sent_at = $2, failed_at = 0, failure = '',
			last_period = CASE WHEN $3 = '' THEN last_period ELSE $3 END WHERE analyst_id = $1`, id, s.stamp(), period)
		return err
	})
}

// DigestFailed records why the latest send failed (clipped to 300 bytes).
func (s *Store) DigestFailed(ctx context.Context, a Analyst, why string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if len(why) > 300 {
		why = why[:300]
	}
	why = strings.ToValidUTF8(strings.ReplaceAll(why, "\x00", ""), "?")
	return s.write(ctx, a, "digest failed", func(tx *sql.Tx, id int64) error {
		_, err := tx.ExecContext(ctx, `UPDATE digest_settings SET failed_at = $2, failure = $3 WHERE analyst_id = $1`, id, s.stamp(), why)
		return err
	})
}

// Subscriber is an analyst whose digest goes out, with their settings.
type Subscriber struct {
	Analyst
	DigestSettings
}

// Subscribers are the analysts with a verified address and a frequency
// other than off, at most limit of them, in a stable order.
func (s *Store) Subscribers(ctx context.Context, limit int) ([]Subscriber, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	rows, err := s.r.QueryContext(ctx, `SELECT a.service, a.user_name, d.email, d.verified_email, d.verified_at, d.frequency,
		d.verify_sent_at, d.last_sent_at, d.last_period, d.failed_at, d.failure
		FROM digest_settings d JOIN analysts a ON a.id = d.analyst_id
		WHERE d.frequency <> $1 AND d.email <> '' AND d.verified_email = d.email ORDER BY d.analyst_id LIMIT $2`, DigestOff, limit)
	if err != nil {
		return nil, wrap("digest subscribers", err)
	}
	defer rows.Close()
	var out []Subscriber
	for rows.Next() {
		var sub Subscriber
		var svc, user string
		var d DigestSettings
		var verified string
		var verifiedAt, verifySent, lastSent, failedAt int64
		if err := rows.Scan(&svc, &user, &d.Email, &verified, &verifiedAt, &d.Frequency, &verifySent, &lastSent, &d.LastPeriod, &failedAt, &d.Failure); err != nil {
			return nil, wrap("digest subscribers", err)
		}
		d.Verified = true
		d.VerifiedAt, d.VerifySent, d.LastSent, d.FailedAt = stampTime(verifiedAt), stampTime(verifySent), stampTime(lastSent), stampTime(failedAt)
		sub.Analyst, sub.DigestSettings = Analyst{Service: svc, User: user}, d
		out = append(out, sub)
	}
	return out, wrap("digest subscribers", rows.Err())
}

// AlertsSince are the analyst's alerts raised after since, newest first,
// at most limit of them, and how many there are in all.
func (s *Store) AlertsSince(ctx context.Context, a Analyst, since time.Time, limit int) ([]Alert, int, error) {
	all, err := s.Alerts(ctx, a, 0)
	if err != nil {
		return nil, 0, err
	}
	n := 0
	for n < len(all) && all[n].Created.After(since) {
		n++
	}
	return all[:min(n, limit)], n, nil
}
