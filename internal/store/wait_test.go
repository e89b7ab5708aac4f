package store

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"creditdash/internal/store/storetest"
)

// A file that is not a database: Open names it as corrupt; with Wait the
// store opens anyway and Ping and QuickCheck name the file.
func TestCorruptSQLiteFileIsNamed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	must(t, os.WriteFile(path, []byte(strings.Repeat("not a database, an analyst's lost notes ", 200)), 0o600))
	if s, err := Open(t.Context(), Config{DataDir: dir}); err == nil {
		s.Close()
		t.Fatal("Open of a corrupt file succeeded")
	} else if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
		t.Errorf("Open error %q; want ErrCorrupt naming %s", err, path)
	}

	s, err := Open(t.Context(), Config{DataDir: dir, Wait: true})
	if err != nil {
		t.Fatalf("Open with Wait: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	for name, err := range map[string]error{"Ping": s.Ping(t.Context()), "Unavailable": s.Unavailable()} {
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s = %v; want ErrCorrupt naming %s", name, err, path)
		}
	}
	if _, err := s.WatchList(t.Context(), Analyst{Service: "s", User: "u"}); err == nil {
		t.Error("a read of a corrupt store succeeded")
	}
}

// A whole file passes quick_check.
func TestQuickCheckOfAWholeFile(t *testing.T) {
	s := openTest(t, SQLite, Config{DataDir: t.TempDir()})
	must(t, s.QuickCheck(t.Context()))
}

// PostgreSQL names a wrong user or database as a misconfiguration, never
// waited for.
func TestPostgresMisconfigurationIsFatal(t *testing.T) {
	base, err := url.Parse(storetest.Database(t))
	must(t, err)
	for name, mutate := range map[string]func(u *url.URL){
		"unknown database": func(u *url.URL) { u.Path = "/creditdash_no_such_database" },
		"unknown user":     func(u *url.URL) { u.User = url.UserPassword("no_such_user", "secret-pw") },
	} {
		u := *base
		mutate(&u)
		s, err := Open(t.Context(), Config{DatabaseURL: u.String(), Wait: true})
		if err == nil {
			s.Close()
			t.Errorf("%s: Open succeeded", name)
			continue
		}
		if !errors.Is(err, ErrMisconfigured) || strings.Contains(err.Error(), "secret-pw") {
			t.Errorf("%s: Open error %q; want ErrMisconfigured without the password", name, err)
		}
	}
}

// A PostgreSQL server that is not there at start: with Wait the store
// opens degraded, and once the server answers it migrates and works.
func TestPostgresThatComesLater(t *testing.T) {
	target, err := url.Parse(storetest.Database(t))
	must(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	addr := ln.Addr().String()
	ln.Close() // nothing listens there yet
	u := *target
	u.Host = addr
	s, err := Open(t.Context(), Config{DatabaseURL: u.String(), Wait: true, Timeout: time.Second})
	if err != nil {
		t.Fatalf("Open with the server down and Wait: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	if s.Ping(t.Context()) == nil || s.Unavailable() == nil {
		t.Fatal("a store without its server says it is ready")
	}

	// The server "comes": a forwarder on the address the store knows.
	ln, err = net.Listen("tcp", addr)
	must(t, err)
	t.Cleanup(func() { ln.Close() })
	go forward(ln, target.Host)
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Second)
	defer cancel()
	for s.Unavailable() != nil {
		select {
		case <-ctx.Done():
			t.Fatalf("the store did not pick up its server: %v", s.Unavailable())
		case <-time.After(50 * time.Millisecond):
		}
	}
	must(t, s.Ping(t.Context()))
	a := Analyst{Service: "s", User: "u"}
	must(t, s.Watch(t.Context(), a, 1001, "Westbridge"))
	if list, err := s.WatchList(t.Context(), a); err != nil || len(list) != 1 {
		t.Errorf("after the server came: watch list %v, %v", list, err)
	}
}

// forward copies every connection of ln to target, both ways.
func forward(ln net.Listener, target string) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			d, err := net.Dial("tcp", target)
			if err != nil {
				return
			}
			defer d.Close()
			go func() { _, _ = io.Copy(d, c) }()
			_, _ = io.Copy(c, d)
		}()
	}
}
