package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// recorder stands in for t to see whether a check would fail.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// TestInjectedScriptIsBlockedAndReported proves both halves of the CSP
// check: the dashboard's policy stops a script injected without the nonce,
// and NoCSPViolations notices, so a clean result elsewhere means something.
func TestInjectedScriptIsBlockedAndReported(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	b.Navigate(app.URL + "/login")

	Eval[bool](b, `(() => {
		const s = document.createElement('script');
		s.textContent = 'window.injected = true';
		document.body.append(s);
		return true;
	})()`)
	if Eval[bool](b, "window.injected === true") {
		t.Fatal("an inline script without the nonce ran: the CSP does not block it")
	}

	rec := &recorder{TB: t}
	b.NoCSPViolations(rec)
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "script-src") {
		t.Errorf("NoCSPViolations after a blocked inline script reported %q, want one failure naming script-src", rec.errors)
	}
}
