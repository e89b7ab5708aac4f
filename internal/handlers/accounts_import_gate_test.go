package handlers

import (
	"testing"

	"creditdash/internal/store"
)

// TestImportGate (issue 47.1): one import at a time per analyst, two per
// team; the others are told to wait, and a place given back is free
// again; nothing is kept once every read has ended.
func TestImportGate(t *testing.T) {
	var g importGate
	alice, bob, carol := store.Analyst{Service: "s", User: "alice"}, store.Analyst{Service: "s", User: "bob"}, store.Analyst{Service: "s", User: "carol"}
	leaveA, wait := g.enter(alice)
	if wait != "" {
		t.Fatal(wait)
	}
	if _, wait := g.enter(alice); wait == "" {
		t.Error("a second import of one analyst is let in")
	}
	leaveB, wait := g.enter(bob)
	if wait != "" {
		t.Fatal(wait)
	}
	if _, wait := g.enter(carol); wait == "" {
		t.Error("a third import of the team is let in")
	}
	if leave, wait := g.enter(store.Analyst{Service: "other", User: "carol"}); wait != "" {
		t.Errorf("another team waits: %s", wait)
	} else {
		leave()
	}
	leaveA()
	leaveC, wait := g.enter(carol)
	if wait != "" {
		t.Errorf("after a place is given back: %s", wait)
	}
	leaveB()
	leaveC()
	if len(g.teams) != 0 || len(g.analysts) != 0 {
		t.Errorf("kept after every read ended: %v %v", g.teams, g.analysts)
	}
}
