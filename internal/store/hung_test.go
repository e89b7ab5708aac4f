package store

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"creditdash/internal/store/storetest"
)

// freezer passes connections through to a real server until frozen; then
// it forwards nothing more, in either direction, as a server that stopped
// answering (a paused process, a lost network) would.
type freezer struct {
	ln     net.Listener
	target string
	once   sync.Once
	frozen chan struct{}
}

func newFreezer(t *testing.T, target string) *freezer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &freezer{ln: ln, target: target, frozen: make(chan struct{})}
	t.Cleanup(func() { ln.Close() })
	go f.serve()
	return f
}

func (f *freezer) serve() {
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
func (f *freezer) pipe(dst io.Writer, src io.Reader) {
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

func (f *freezer) freeze() { f.once.Do(func() { close(f.frozen) }) }

// within runs fn and fails the test if it has not returned in a minute:
// a guard against hanging the whole run, not a measure of speed.
func within(t *testing.T, what string, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("%s never returned", what)
		return nil
	}
}

// A database that stops answering fails each call at the store's bound
// instead of holding it, and a new store cannot be opened on it.
func TestHungDatabaseFailsAtTheBound(t *testing.T) {
	u, err := url.Parse(storetest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	f := newFreezer(t, u.Host)
	u.Host = f.ln.Addr().String()
	ctx := context.Background()
	s, err := Open(ctx, Config{DatabaseURL: u.String(), Timeout: 300 * time.Millisecond, MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.WatchList(ctx, alice); err != nil {
		t.Fatalf("before the freeze: %v", err)
	}

	f.freeze()
	err = within(t, "a read on the frozen database", func() error { _, err := s.WatchList(ctx, alice); return err })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a read on the frozen database: %v, want the bound's deadline", err)
	}
	err = within(t, "a write on the frozen database", func() error { return s.Watch(ctx, alice, 1001, "Westbridge") })
	if err == nil {
		t.Error("a write on the frozen database succeeded")
	}
	err = within(t, "opening a store on the frozen database", func() error {
		s2, err := Open(ctx, Config{DatabaseURL: u.String(), Timeout: 300 * time.Millisecond})
		if err == nil {
			s2.Close()
		}
		return err
	})
	if err == nil {
		t.Error("a store opened on the frozen database")
	}
}
