package handlers_test

import (
	"context"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/handlers"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/simulator"
)

// countingService counts the sign-ins that reach the service and the
// codes it sent.
type countingService struct {
	*upstream.Client
	signIns, codes atomic.Int32
}

func (s *countingService) SignIn(ctx context.Context, cr upstream.Credentials) (upstream.LoginResult, error) {
	s.signIns.Add(1)
	res, err := s.Client.SignIn(ctx, cr)
	if err == nil && res.TwoFactorAuthenticationRequired {
		s.codes.Add(1)
	}
	return res, err
}

// slowApp is the dashboard in front of a stand-in that answers after
// 300 ms, as in the hostile run, counting what reaches it.
func slowApp(t *testing.T, opts apptest.Options) (*apptest.App, *countingService) {
	t.Helper()
	svc := &countingService{}
	opts.WrapService = func(c *upstream.Client) handlers.Service {
		svc.Client = c
		return svc
	}
	app := apptest.Start(t, opts)
	app.Sim.SetFaults(simulator.Faults{Latency: 300 * time.Millisecond})
	return app, svc
}

// inParallel runs n sign-ins at once, each from its own browser, and
// returns their statuses.
func inParallel(t *testing.T, app *apptest.App, n int, login func(u *apptest.User) *apptest.Page) map[int]int {
	t.Helper()
	users := make([]*apptest.User, n)
	for i := range users {
		users[i] = app.NewUser(t)
	}
	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for _, u := range users {
		wg.Go(func() {
			p := login(u)
			mu.Lock()
			statuses[p.Status]++
			mu.Unlock()
		})
	}
	wg.Wait()
	return statuses
}

// Parallel wrong passwords for one name from one address reach the
// service at most the limit of ten: each attempt is counted before the
// service is asked, not after its slow answer.
func TestSignInThrottleHoldsParallelWrongPasswords(t *testing.T) {
	app, svc := slowApp(t, apptest.Options{})
	statuses := inParallel(t, app, 40, func(u *apptest.User) *apptest.Page { return u.Login("demo", "wrong", "") })
	if n := svc.signIns.Load(); n > 10 {
		t.Errorf("%d of 40 parallel wrong passwords reached the service, want at most 10", n)
	}
	if statuses[http.StatusTooManyRequests] < 30 {
		t.Errorf("statuses %v, want at least 30 held with 429", statuses)
	}
}

// Parallel sign-ins of a two-factor account send at most the five codes
// of the window.
func TestSignInThrottleHoldsParallelCodes(t *testing.T) {
	app, svc := slowApp(t, apptest.Options{})
	statuses := inParallel(t, app, 20, func(u *apptest.User) *apptest.Page { return u.Login("secure", "demo", "") })
	if n := svc.codes.Load(); n > 5 || n == 0 {
		t.Errorf("20 parallel sign-ins of a two-factor account sent %d codes, want 1 to 5", n)
	}
	if statuses[http.StatusTooManyRequests] < 15 {
		t.Errorf("statuses %v, want at least 15 held with 429", statuses)
	}
}

// Addresses of one IPv6 /64 count as one place, and a name's failures
// from many places are bounded too.
func TestSignInThrottleCountsPlacesAndNames(t *testing.T) {
	app := apptest.Start(t, apptest.Options{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	from := func(addr string) *apptest.User {
		u := app.NewUser(t)
		u.Header.Set("X-Forwarded-For", addr)
		return u
	}
	for i := range 10 {
		if p := from("2001:db8:1:2::"+strconv.Itoa(100+i)).Login("demo", "wrong", ""); p.Status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: status %d, want 401", i+1, p.Status)
		}
	}
	if p := from("2001:db8:1:2:ffff::1").Login("demo", "demo", ""); p.Status != http.StatusTooManyRequests {
		t.Errorf("another address of the same /64 after ten wrong passwords: status %d, want 429", p.Status)
	}
	if p := from("2001:db8:1:3::1").Login("demo", "demo", ""); p.Status != http.StatusSeeOther {
		t.Errorf("another /64: status %d, want 303", p.Status)
	}
	// 10 failures so far; 20 more from other places reach the bound of
	// 30 for the name from anywhere.
	for i := range 20 {
		addr := "198.51.100." + string(rune('0'+i/10)) + string(rune('0'+i%10))
		if p := from(addr).Login("trade", "wrong", ""); p.Status != http.StatusUnauthorized {
			t.Fatalf("trade, wrong password %d: status %d, want 401", i+1, p.Status)
		}
	}
	for i := range 10 {
		addr := "203.0.113." + string(rune('0'+i))
		if p := from(addr).Login("trade", "wrong", ""); p.Status != http.StatusUnauthorized {
			t.Fatalf("trade, wrong password %d: status %d, want 401", 21+i, p.Status)
		}
	}
	p := from("192.0.2.77").Login("trade", "demo", "")
	if p.Status != http.StatusTooManyRequests || !strings.Contains(p.Text("[role=alert]"), "Too many failed sign-ins") {
		t.Errorf("trade from a new address after 30 failures from 30 addresses: status %d, want 429", p.Status)
	}
}

// A user name that looks like a password is logged only redacted.
func TestPasswordLikeNameIsNotLogged(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	if p := app.NewUser(t).Login("P@ssw0rd2026", "x", ""); p.Status != http.StatusUnauthorized {
		t.Fatalf("status %d, want 401", p.Status)
	}
	if logs := app.Logs.String(); strings.Contains(logs, "P@ssw0rd2026") || !strings.Contains(logs, "redacted, 12 characters") {
		t.Errorf("the log names the password-like user name, or not its redacted form:\n%s", logs)
	}
	if p := app.NewUser(t).Login("jane.doe@example.com", "x", ""); p.Status != http.StatusUnauthorized {
		t.Fatalf("status %d, want 401", p.Status)
	}
	if !app.Logs.Contains("jane.doe@example.com") {
		t.Error("an e-mail address as user name is not logged as it is")
	}
}
