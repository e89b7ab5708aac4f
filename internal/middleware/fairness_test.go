package middleware

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestUserSlotsBoundEachUserAndForgetIdleOnes(t *testing.T) {
	u := NewUserSlots(2)
	var running, most atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			release, err := u.Acquire(context.Background(), "a")
			if err != nil {
				t.Error(err)
				return
			}
			n := running.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			running.Add(-1)
			release()
		})
	}
	// Another user is never held up by the first.
	release, ok := u.TryAcquire("b")
	if !ok {
		t.Error("user b waited for user a's slots")
	} else {
		release()
	}
	wg.Wait()
	if most.Load() > 2 {
		t.Errorf("%d calls of one user ran at once, limit 2", most.Load())
	}
	if n := u.InUse(); n != 0 {
		t.Errorf("%d users still in the map after everything ended", n)
	}
	r1, _ := u.TryAcquire("a")
	r2, _ := u.TryAcquire("a")
	if _, ok := u.TryAcquire("a"); ok {
		t.Error("a third slot was given with a limit of 2")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := u.Acquire(ctx, "a"); err == nil {
		t.Error("acquire did not give up with its context")
	}
	r1()
	r2()
	if n := u.InUse(); n != 0 {
		t.Errorf("%d users in the map after release", n)
	}
}
