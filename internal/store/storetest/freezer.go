package storetest

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
)

// Freezer passes connections through to a real server until frozen; then
// it forwards nothing more, in either direction, as a server that stopped
// answering (a paused process, a lost network) would.
type Freezer struct {
	ln     net.Listener
	target string
	once   sync.Once
	frozen chan struct{}
}

// NewFreezer listens on a loopback port and forwards to target
// (host:port) until Freeze; it stops when the test ends.
func NewFreezer(t testing.TB, target string) *Freezer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &Freezer{ln: ln, target: target, frozen: make(chan struct{})}
	t.Cleanup(func() { ln.Close() })
	go f.serve()
	return f
}

// Through returns the database URL dbURL with its host replaced by the
// freezer's, so connections go through it.
func (f *Freezer) Through(t testing.TB, dbURL string) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = f.Addr()
	return u.String()
}

// Addr is the freezer's host:port.
func (f *Freezer) Addr() string { return f.ln.Addr().String() }

func (f *Freezer) serve() {
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			s, err := net.Dial("tcp", f.target)
			if err != nil {
				return
			}
			defer s.Close()
			go f.pipe(s, c)
			f.pipe(c, s)
		}()
	}
}

// pipe copies until frozen; a frozen pipe holds what it read.
func (f *Freezer) pipe(dst io.Writer, src io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			select {
			case <-f.frozen:
				select {} // holds the bytes for good, as a paused server does
			default:
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// Freeze stops all forwarding, for good.
func (f *Freezer) Freeze() { f.once.Do(func() { close(f.frozen) }) }
