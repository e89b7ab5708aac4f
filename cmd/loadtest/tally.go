package main

import (
	"net/http"
	"slices"
	"sync"
	"time"
)

// tally gathers the outcomes of many concurrent requests.
type tally struct {
	mu       sync.Mutex
	times    []time.Duration
	byStatus map[int]int
	byKind   [numKinds]int
	// redirects counts where redirects sent the visitor (/login: signed
	// out; a page: a message instead of the answer), a few places at most.
	redirects map[string]int
	errs      []error // the first few requests with no answer, for the notes
}

func newTally() *tally { return &tally{byStatus: map[int]int{}, redirects: map[string]int{}} }

// maxPlaces bounds the redirect places kept: a flood of distinct
// locations must not grow the tally.
const maxPlaces = 8

// add records one request of kind k.
func (t *tally) add(k kind, o outcome) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.times = append(t.times, o.elapsed)
	t.byKind[k]++
	if o.status == 0 && o.err == nil {
		o.err = errNoStatus
	}
	if o.err != nil {
		// A body cut short after the status still counts as no answer.
		t.byStatus[0]++
		if len(t.errs) < 3 {
			t.errs = append(t.errs, o.err)
		}
		return
	}
	t.byStatus[o.status]++
	if o.location != "" {
		if _, ok := t.redirects[o.location]; ok || len(t.redirects) < maxPlaces {
			t.redirects[o.location]++
		}
	}
}

// redirectText lists where redirects went, e.g. "to /portfolio×12".
func (t *tally) redirectText() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.redirects) == 0 {
		return "no redirects"
	}
	return "redirects to " + describe(t.redirects)
}

// count is the number of requests recorded.
func (t *tally) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.times)
}

// ok is the number of 200 answers.
func (t *tally) ok() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.byStatus[http.StatusOK]
}

// failures are the answers other than 200, by status.
func (t *tally) failures() map[int]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[int]int{}
	for s, n := range t.byStatus {
		if s != http.StatusOK {
			out[s] = n
		}
	}
	return out
}

// sorted is the request times, ascending.
func (t *tally) sorted() []time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := slices.Clone(t.times)
	slices.Sort(s)
	return s
}

// errNoStatus marks an answer without a status, which net/http never gives.
var errNoStatus = errorString("no status")

type errorString string

func (e errorString) Error() string { return string(e) }
