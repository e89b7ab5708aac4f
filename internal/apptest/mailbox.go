package apptest

import (
	"bytes"
	"crypto/x509"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Mailbox is a real SMTP server on a random loopback port, the receiving
// side of the digests in tests.
type Mailbox struct {
	// URL is the SMTP_URL that sends here (with the user and password
	// when the server asks for them).
	URL string
	// Roots trust the server's certificate when it offers STARTTLS.
	Roots *x509.CertPool
	mu    sync.Mutex
	got   []Mail
	// fail is how many of the next messages are refused (451).
	fail      int
	user, pwd string
}

// Mail is one message received, its parts decoded.
type Mail struct {
	From, To   string
	Raw        string
	Header     mail.Header
	Text, HTML string
}

// StartMailbox runs an SMTP server until the test ends; with user and
// password set it offers STARTTLS and requires them (AUTH PLAIN, over
// TLS). Roots are the certificate authorities that trust its certificate.
func StartMailbox(t testing.TB, user, password string) *Mailbox {
	t.Helper()
	mb := &Mailbox{user: user, pwd: password}
	s := smtp.NewServer(mb)
	if user != "" {
		// httptest's certificate for 127.0.0.1, and a pool that trusts it.
		ts := httptest.NewTLSServer(http.NotFoundHandler())
		s.TLSConfig = ts.TLS.Clone()
		mb.Roots = ts.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
		ts.Close()
	}
	s.Domain = "localhost"
	s.AllowInsecureAuth = true
	s.ReadTimeout, s.WriteTimeout = 10*time.Second, 10*time.Second
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.Serve(l) }()
	t.Cleanup(func() { _ = s.Close() })
	mb.URL = "smtp://" + l.Addr().String()
	if user != "" {
		mb.URL = "smtp://" + user + ":" + password + "@" + l.Addr().String()
	}
	return mb
}

// FailNext makes the next n messages be refused with a temporary error.
func (m *Mailbox) FailNext(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.fail = n
}

// Received are the messages received so far.
func (m *Mailbox) Received() []Mail {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Mail(nil), m.got...)
}

// Wait waits, up to 30 seconds, for a received message that match
// accepts, and returns it.
func (m *Mailbox) Wait(t testing.TB, what string, match func(Mail) bool) Mail {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		for _, got := range m.Received() {
			if match(got) {
				return got
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no mail %s within 30 s; received %d", what, len(m.Received()))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// NewSession implements smtp.Backend.
func (m *Mailbox) NewSession(*smtp.Conn) (smtp.Session, error) {
	return &mailSession{mb: m, authed: m.user == ""}, nil
}

type mailSession struct {
	mb       *Mailbox
	from, to string
	authed   bool
}

func (s *mailSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *mailSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != s.mb.user || pass != s.mb.pwd {
			return errors.New("invalid credentials")
		}
		s.authed = true
		return nil
	}), nil
}

func (s *mailSession) Reset()        { s.from, s.to = "", "" }
func (s *mailSession) Logout() error { return nil }

func (s *mailSession) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *mailSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = to
	return nil
}

func (s *mailSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.mb.mu.Lock()
	defer s.mb.mu.Unlock()
	if s.mb.fail > 0 {
		s.mb.fail--
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "mailbox busy, try later"}
	}
	got := Mail{From: s.from, To: s.to, Raw: string(raw)}
	if msg, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		got.Header = msg.Header
		got.Text, got.HTML = parts(msg.Header.Get("Content-Type"), msg.Body)
		if mt, _, _ := mime.ParseMediaType(msg.Header.Get("Content-Type")); mt == "text/plain" {
			// A plain-text mail (credit applications' mails) is its body.
			var r io.Reader = bytes.NewReader(raw[len(raw)-bodyLen(raw):])
			if strings.EqualFold(msg.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
				r = quotedprintable.NewReader(r)
			}
			b, _ := io.ReadAll(r)
			got.Text = string(b)
		}
	}
	s.mb.got = append(s.mb.got, got)
	return nil
}

// bodyLen is the length of a raw message's body, after its header's
// blank line.
func bodyLen(raw []byte) int {
	if i := bytes.Index(raw, []byte("\r\n\r\n")); i >= 0 {
		return len(raw) - i - 4
	}
	if i := bytes.Index(raw, []byte("\n\n")); i >= 0 {
		return len(raw) - i - 2
	}
	return 0
}

// parts finds the text/plain and text/html parts, decoded.
func parts(contentType string, body io.Reader) (text, html string) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || !strings.HasPrefix(mt, "multipart/") {
		return "", ""
	}
	mr := multipart.NewReader(body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err != nil {
			return text, html
		}
		var r io.Reader = p
		if strings.EqualFold(p.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
			r = quotedprintable.NewReader(p)
		}
		b, _ := io.ReadAll(r)
		switch pt, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); {
		case pt == "text/plain":
			text = string(b)
		case pt == "text/html":
			html = string(b)
		case strings.HasPrefix(pt, "multipart/"):
			t, h := parts(p.Header.Get("Content-Type"), bytes.NewReader(b))
			text, html = text+t, html+h
		}
	}
}
