package main

import (
	"context"
	"runtime/debug"
	"time"
)

// tidyEvery is how often expired copies and pages are dropped and their
// memory handed back to the system.
const tidyEvery = 30 * time.Second

// cleaner drops what has expired.
type cleaner interface{ CleanUp() }

// tidy drops expired copies and kept pages, then returns freed memory to
// the system, so a process that was busy and is now idle shrinks back
// instead of holding its peak until the next request.
func tidy(ctx context.Context, parts ...cleaner) {
	t := time.NewTicker(tidyEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			for _, p := range parts {
				p.CleanUp()
			}
			debug.FreeOSMemory()
		}
	}
}
