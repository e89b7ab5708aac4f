package handlers_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql's "pgx"

	"creditdash/internal/apptest"
	"creditdash/internal/store/storetest"
)

// ticksDone counts the finished looks for due digests in River's table.
func ticksDone(t *testing.T, db *sql.DB) int {
	t.Helper()
	var n int
	if err := db.QueryRowContext(context.Background(), "SELECT COUNT(*) FROM river_job WHERE kind = 'digest_tick' AND state = 'completed'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Two replicas on one PostgreSQL database, then one of them stopped and
// a third started (a restart): the verification mail and the day's
// digest are each sent once, however many times the replicas looked for
// due digests.
func TestDigestTwoReplicasSendOnce(t *testing.T) {
	url := storetest.Database(t)
	mb := apptest.StartMailbox(t, "", "")
	one := apptest.Start(t, apptest.Options{DatabaseURL: url, SMTPURL: mb.URL})
	two := apptest.Start(t, apptest.Options{DatabaseURL: url, SMTPURL: mb.URL, SameService: one})
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	u := signInWS(t, one, "demo")
	subscribe(t, two, mb, u, "team@example.com", "daily") // the link opened on the other replica
	mb.Wait(t, "the day's digest", isDigest("team@example.com"))
	after := ticksDone(t, db)
	waitFor(t, "ten more looks for due digests", func() bool { return ticksDone(t, db) >= after+10 })

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := one.Jobs.Close(ctx); err != nil {
		t.Fatal(err)
	}
	apptest.Start(t, apptest.Options{DatabaseURL: url, SMTPURL: mb.URL, SameService: one})
	after = ticksDone(t, db)
	waitFor(t, "ten more looks after the restart", func() bool { return ticksDone(t, db) >= after+10 })

	digests, verifications := 0, 0
	for _, m := range mb.Received() {
		switch {
		case isDigest("team@example.com")(m):
			digests++
		case strings.Contains(m.Header.Get("Subject"), "Confirm"):
			verifications++
		}
	}
	if digests != 1 || verifications != 1 {
		t.Fatalf("sent %d digests and %d verification mails, want 1 and 1", digests, verifications)
	}
}
