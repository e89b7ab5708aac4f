package middleware

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// TestGate (issue 47.1, the imports' and downloads' bound): one at a time
// per key, two per group; the others are refused, a turn given back is
// free again, another group has its own, and nothing is kept once every
// turn has ended.
func TestGate(t *testing.T) {
	g := &Gate{PerKey: 1, PerGroup: 2}
	leaveA, full := g.Enter("s", "alice")
	if full != NotFull {
		t.Fatal(full)
	}
	if _, full := g.Enter("s", "alice"); full != KeyFull {
		t.Errorf("a second turn of one key: %v, want KeyFull", full)
	}
	leaveB, full := g.Enter("s", "bob")
	if full != NotFull {
		t.Fatal(full)
	}
	if _, full := g.Enter("s", "carol"); full != GroupFull {
		t.Errorf("a third turn of the group: %v, want GroupFull", full)
	}
	if leave, full := g.Enter("other", "carol"); full != NotFull {
		t.Errorf("another group waits: %v", full)
	} else {
		leave()
	}
	leaveA()
	leaveC, full := g.Enter("s", "carol")
	if full != NotFull {
		t.Errorf("after a turn is given back: %v", full)
	}
	leaveB()
	leaveC()
	if k, gr := g.Running(); k != 0 || gr != 0 {
		t.Errorf("kept after every turn ended: %d keys, %d groups", k, gr)
	}
}

// A first-read deadline ends everything derived from it when the request
// ends first.
func TestFirstReadDeadlineEndsWithTheRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		req, endRequest := context.WithCancel(t.Context())
		ws := FirstReadDeadline(req, time.Minute)
		read, cancel := context.WithCancel(ws)
		defer cancel()
		endRequest()
		synctest.Wait()
		if !errors.Is(read.Err(), context.Canceled) || !errors.Is(ws.Err(), context.Canceled) {
			t.Errorf("after the request ended: read %v, workspace %v, want both cancelled", read.Err(), ws.Err())
		}
	})
}
