package browsertest

import (
	"fmt"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// pollEvery is how often Until asks the page again.
const pollEvery = 50 * time.Millisecond

// Until evaluates js (awaiting a promise) again and again until ok accepts
// its value, and returns that value. It waits for what the test checks,
// never for a fixed time: on a busy machine it takes longer, bounded only
// by the test's deadline, past which it fails the test naming what it
// waited for and the last value the page gave.
func Until[T any](b *Browser, what, js string, ok func(T) bool) T {
	b.t.Helper()
	var last T
	var lastErr error
	for {
		v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
		if err == nil && ok(v) {
			return v
		}
		if err == nil {
			last = v
		}
		lastErr = err
		select {
		case <-b.ctx.Done():
			if lastErr != nil {
				b.fatalf("waited until the test's deadline for %s: %v", what, lastErr)
			}
			b.fatalf("waited until the test's deadline for %s; the page last gave %s", what, fmt.Sprintf("%+v", last))
		case <-time.After(pollEvery):
		}
	}
}

// SlowCPU makes the page's CPU rate times slower (1 is full speed again),
// the way a machine busy with other work makes it: the waits must hold.
func (b *Browser) SlowCPU(rate float64) {
	b.t.Helper()
	ctx := b.ctx
	if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
		b.fatalf("slow the CPU %gx: %v", rate, err)
	}
}
