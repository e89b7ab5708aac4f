package store

import (
	"context"
	"errors"
	"net/url"
	"testing"
	"time"

	"creditdash/internal/store/storetest"
)

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
	f := storetest.NewFreezer(t, u.Host)
	u.Host = f.Addr()
	ctx := context.Background()
	s, err := Open(ctx, Config{DatabaseURL: u.String(), Timeout: 300 * time.Millisecond, MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.WatchList(ctx, alice); err != nil {
		t.Fatalf("before the freeze: %v", err)
	}

	f.Freeze()
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
