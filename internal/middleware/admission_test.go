package middleware

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Turns bound the pages of all users and of each user; a page that waits
// too long is busy, one whose visitor left is not.
func TestTurnsBoundAllPagesAndEachUsers(t *testing.T) {
	tr := NewTurns(3, 2, 20*time.Millisecond)
	ctx := context.Background()
	take := func(user string) func() {
		t.Helper()
		release, err := tr.Take(ctx, user)
		if err != nil {
			t.Fatalf("%s: %v", user, err)
		}
		return release
	}
	a1, a2 := take("a"), take("a")
	if _, err := tr.Take(ctx, "a"); !errors.Is(err, ErrBusy) {
		t.Errorf("a third page of a, limit 2 each: %v, want ErrBusy", err)
	}
	b1 := take("b") // a's crowd does not hold b up
	if _, err := tr.Take(ctx, "c"); !errors.Is(err, ErrBusy) {
		t.Errorf("a fourth page in all, limit 3: %v, want ErrBusy", err)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := tr.Take(gone, "c"); !errors.Is(err, context.Canceled) {
		t.Errorf("a visitor who left: %v, want context.Canceled", err)
	}
	a1()
	c1 := take("c") // a's turn went back to everyone
	b1()
	a3 := take("a")
	for _, release := range []func(){a2, a3, c1} {
		release()
	}
	if n := tr.users.InUse(); n != 0 || len(tr.all) != 0 {
		t.Errorf("after every release: %d users, %d Turns held", n, len(tr.all))
	}
}

// A page waiting for a turn takes it as soon as one is released.
func TestTurnsGoToTheNextInLine(t *testing.T) {
	tr := NewTurns(1, 1, 5*time.Second)
	first, err := tr.Take(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		release, err := tr.Take(context.Background(), "b")
		if err == nil {
			release()
		}
		got <- err
	}()
	first()
	if err := <-got; err != nil {
		t.Errorf("the waiting page: %v", err)
	}
}
