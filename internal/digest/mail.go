package digest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	mail "github.com/wneessen/go-mail"
)

// Message is one mail to send: plain text and HTML of the same content
// (plain text only when HTML is "").
type Message struct {
	To, Subject string
	Text, HTML  string
	// Unsubscribe is the absolute unsubscribe link ("" for mails that
	// are not digests), also sent as List-Unsubscribe.
	Unsubscribe string
	// Tag names the mail in the outbox's file names (the analyst's).
	Tag string
}

// Sender delivers messages.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// build makes the MIME message: multipart/alternative, with Date and
// Message-ID set.
func build(from string, m Message, now time.Time) (*mail.Msg, error) {
	msg := mail.NewMsg()
	if err := msg.From(from); err != nil {
		return nil, fmt.Errorf("digest: DIGEST_FROM: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return nil, fmt.Errorf("digest: recipient: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetDateWithValue(now)
	msg.SetMessageID()
	msg.SetGenHeader(mail.Header("Auto-Submitted"), "auto-generated")
	if m.Unsubscribe != "" {
		msg.SetGenHeaderPreformatted(mail.HeaderListUnsubscribe, "<"+m.Unsubscribe+">")
	}
	msg.SetBodyString(mail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(mail.TypeTextHTML, m.HTML)
	}
	return msg, nil
}

// SMTP sends through an SMTP server named by a URL: smtp://user:pass@host:587
// uses STARTTLS when the server offers it, smtps://host:465 implicit TLS.
type SMTP struct {
	from   string
	host   string
	opts   []mail.Option
	dialTO time.Duration
}

// NewSMTP checks the URL and the sender address. Its errors never quote
// the URL, which holds a password. roots, when not nil, are the
// certificate authorities trusted instead of the system's (tests).
func NewSMTP(rawURL, from string, roots *x509.CertPool) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "smtp" && u.Scheme != "smtps") {
		return nil, errors.New("digest: SMTP_URL must be smtp://[user:password@]host[:port] or smtps://…")
	}
	if msg := mail.NewMsg(); msg.From(from) != nil {
		return nil, errors.New("digest: DIGEST_FROM is not an e-mail address")
	}
	s := &SMTP{from: from, host: u.Hostname(), dialTO: 15 * time.Second}
	port := 587
	if u.Scheme == "smtps" {
		port = 465
		s.opts = append(s.opts, mail.WithSSL())
	} else {
		// STARTTLS when the server offers it, plain otherwise; a password
		// is only ever sent over TLS (go-mail's discovery refuses PLAIN
		// and LOGIN on a plain connection).
		s.opts = append(s.opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return nil, errors.New("digest: SMTP_URL has a bad port")
		}
	}
	s.opts = append(s.opts, mail.WithPort(port), mail.WithTimeout(s.dialTO),
		mail.WithTLSConfig(&tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12, RootCAs: roots}))
	if u.User != nil && u.User.Username() != "" {
		pass, _ := u.User.Password()
		s.opts = append(s.opts, mail.WithSMTPAuth(mail.SMTPAuthAutoDiscover), mail.WithUsername(u.User.Username()), mail.WithPassword(pass))
	}
	return s, nil
}

// Send delivers m.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg, err := build(s.from, m, time.Now())
	if err != nil {
		return err
	}
	c, err := mail.NewClient(s.host, s.opts...)
	if err != nil {
		return fmt.Errorf("digest: smtp: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("digest: smtp: %w", err)
	}
	return nil
}

// Outbox writes each message as an .eml file into a folder (demo mode
// without SMTP_URL), where the settings page lists them.
type Outbox struct {
	Dir  string
	From string
}

// MaxOutbox is how many files the outbox keeps; older ones are removed.
const MaxOutbox = 200

// Send writes m as Dir/<time>-<tag>.eml and trims the outbox.
func (o *Outbox) Send(_ context.Context, m Message) error {
	now := time.Now().UTC()
	msg, err := build(o.From, m, now)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.Dir, 0o750); err != nil {
		return fmt.Errorf("digest: outbox: %w", err)
	}
	// Written aside and renamed, so that the listing never shows half a
	// mail.
	name := filepath.Join(o.Dir, now.Format("20060102T150405.000000000Z")+"-"+m.Tag+".eml")
	if err := msg.WriteToFile(name + ".part"); err != nil {
		return fmt.Errorf("digest: outbox: %w", err)
	}
	if err := os.Rename(name+".part", name); err != nil {
		return fmt.Errorf("digest: outbox: %w", err)
	}
	files, _ := o.list("")
	for _, f := range files[min(len(files), MaxOutbox):] {
		_ = os.Remove(filepath.Join(o.Dir, f))
	}
	return nil
}

// list names the outbox's files whose tag is tag (all when ""), newest
// first.
func (o *Outbox) list(tag string) ([]string, error) {
	entries, err := os.ReadDir(o.Dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(n, ".eml") {
			continue
		}
		if tag == "" || strings.HasSuffix(n, "-"+tag+".eml") {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out, nil
}
