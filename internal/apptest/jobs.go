package apptest

import (
	"strings"
	"testing"
	"time"
)

// WaitJobs waits, up to 30 seconds, until the job queue holds no job of
// the kinds given that is still to run (available, scheduled, running or
// retryable): the queue driven to completion, read from River's own
// table on either engine, so a test never sleeps a guessed time.
func (a *App) WaitJobs(t testing.TB, kinds ...string) {
	t.Helper()
	q := "SELECT COUNT(*) FROM river_job WHERE state IN ('available', 'scheduled', 'running', 'retryable', 'pending') AND kind IN ('" +
		strings.Join(kinds, "', '") + "')"
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int
		if err := a.Store.JobsDB().QueryRowContext(t.Context(), q).Scan(&n); err != nil {
			t.Fatalf("reading the job queue: %v", err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job queue still holds %d jobs of %v after 30 s", n, kinds)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// LinkIn is the path of the first link under prefix (such as
// "/reference/") in a mail's text, on the site's public address.
func LinkIn(t testing.TB, m Mail, prefix string) string {
	t.Helper()
	i := strings.Index(m.Text, PublicURL+prefix)
	if i < 0 {
		t.Fatalf("no %s link in the mail to %s:\n%s", prefix, m.To, m.Text)
	}
	link := m.Text[i+len(PublicURL):]
	if j := strings.IndexAny(link, " \r\n"); j >= 0 {
		link = link[:j]
	}
	return link
}
