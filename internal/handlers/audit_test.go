package handlers_test

import (
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // to edit the PostgreSQL log by hand
	_ "modernc.org/sqlite"             // to edit the SQLite log by hand

	"creditdash/internal/apptest"
	"creditdash/internal/store"
	"creditdash/internal/store/storetest"
)

// demoRoleEntries is how many entries the demo roles put in a new log: the
// five demo users bootstrapped as the team's members.
const demoRoleEntries = 5

// auditApp starts the dashboard on engine ("sqlite" or "postgres") and
// returns it with a way to run SQL on its database by hand.
func auditApp(t *testing.T, engine string) (*apptest.App, *sql.DB) {
	t.Helper()
	return auditAppAt(t, engine, nil)
}

// auditAppAt is auditApp on the clock now (nil: time.Now).
func auditAppAt(t *testing.T, engine string, now func() time.Time) (*apptest.App, *sql.DB) {
	t.Helper()
	opts := apptest.Options{Now: now}
	var db *sql.DB
	var err error
	if engine == "postgres" {
		opts.DatabaseURL = storetest.Database(t)
		db, err = sql.Open("pgx", opts.DatabaseURL)
	} else {
		opts.DataDir = t.TempDir()
		app := apptest.Start(t, opts)
		db, err = sql.Open("sqlite", "file:"+filepath.Join(opts.DataDir, store.FileName)+"?_pragma=busy_timeout(5000)")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return app, db
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return apptest.Start(t, opts), db
}

// appendEntries appends n entries by actor: accounts ACC-0..2, businesses
// 1001 and 1002, reasons "r1"...
func appendEntries(t *testing.T, app *apptest.App, actor string, n int) {
	t.Helper()
	for i := range n {
		_, err := app.Store.AppendAudit(context.Background(), apptest.WorkspaceService, store.AuditChange{
			Actor: actor, Action: "limit", Account: fmt.Sprintf("ACC-%d", i%3), BusinessID: int32(1001 + i%2),
			OldValue: "10000", NewValue: "25000", Reason: fmt.Sprintf("r%d", i+1)})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func eachAuditEngine(t *testing.T, fn func(t *testing.T, app *apptest.App, db *sql.DB)) {
	for _, e := range []string{"sqlite", "postgres"} {
		t.Run(e, func(t *testing.T) {
			app, db := auditApp(t, e)
			fn(t, app, db)
		})
	}
}

func TestAuditPage(t *testing.T) {
	eachAuditEngine(t, func(t *testing.T, app *apptest.App, _ *sql.DB) {
		appendEntries(t, app, "alice", 50)
		appendEntries(t, app, "bob", 4)
		u := app.SignIn(t, "ordinary") // an analyst: the log is the team's
		p := u.Get("/")
		if p.Doc.Find(`nav a[href="/audit"]`).Length() != 1 {
			t.Error("the navigation has no link to the audit trail")
		}
		p = u.Get("/audit")
		if p.Status != http.StatusOK {
			t.Fatalf("GET /audit: %d", p.Status)
		}
		rows := p.Doc.Find("table.audit tbody tr")
		total := 54 + demoRoleEntries
		if rows.Length() != 50 || strings.Fields(rows.First().Find("td").First().Text())[0] != fmt.Sprint(total) {
			t.Fatalf("first page: %d rows starting at %q, want 50 from %d", rows.Length(), rows.First().Find("td").First().Text(), total)
		}
		if link, _ := rows.First().Find(`a[href^="/businesses/"]`).Attr("href"); link != "/businesses/1002" {
			t.Errorf("the newest entry links its business as %q", link)
		}
		older, ok := p.Doc.Find(`nav.pager a:contains("Older")`).Attr("href")
		if !ok || older != fmt.Sprintf("/audit?before=%d", total-49) {
			t.Fatalf("older link = %q", older)
		}
		p = u.Get(older)
		if n := p.Doc.Find("table.audit tbody tr").Length(); n != total-50 {
			t.Errorf("second page: %d rows, want %d", n, total-50)
		}
		if p.Doc.Find(`nav.pager a:contains("Newest")`).Length() != 1 || p.Doc.Find(`nav.pager a:contains("Older")`).Length() != 0 {
			t.Error("the last page should link to the newest and have no older page")
		}

		for _, c := range []struct {
			query string
			rows  int
		}{
			{"actor=bob", 4},
			{"action=member", demoRoleEntries},
			{"account=ACC-1&actor=alice", 17},
			{"actor=nobody", 0},
			{"from=2000-01-01&to=2999-12-31&actor=bob", 4},
			{"to=2001-01-01", 0},
		} {
			p := u.Get("/audit?" + c.query)
			if p.Status != http.StatusOK || p.Doc.Find("table.audit tbody tr").Length() != c.rows {
				t.Errorf("GET /audit?%s: status %d, %d rows, want %d", c.query, p.Status, p.Doc.Find("table.audit tbody tr").Length(), c.rows)
			}
			if csvURL, _ := p.Doc.Find(`a[href^="/audit.csv"]`).Attr("href"); !strings.Contains(csvURL, strings.Split(c.query, "&")[0]) {
				t.Errorf("GET /audit?%s: the download %q lacks the filter", c.query, csvURL)
			}
		}
		if p := u.Get("/audit?actor=nobody"); p.Text(".empty") != "No entry matches this filter." {
			t.Errorf("an empty filter result says %q", p.Text(".empty"))
		}
	})
}

// A bad filter is refused with a message and the form as typed.
func TestAuditFilterRefused(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	for _, c := range []struct {
		query, field, value, want string
	}{
		{"from=2026-13-01", "from", "2026-13-01", "From must be a date"},
		{"to=yesterday&actor=alice", "to", "yesterday", "To must be a date"},
		{"from=2026-02-01&to=2026-01-01", "to", "2026-01-01", "To must not be before From"},
		{"action=Limit+Change", "action", "Limit Change", "An action is one lowercase word"},
		{"actor=" + strings.Repeat("x", 300), "actor", strings.Repeat("x", 256), "at most 256 characters"},
	} {
		p := u.Get("/audit?" + c.query)
		if p.Status != http.StatusUnprocessableEntity {
			t.Errorf("GET /audit?%.40s: status %d, want 422", c.query, p.Status)
			continue
		}
		if msg := p.Text(".form-error"); !strings.Contains(msg, c.want) {
			t.Errorf("GET /audit?%.40s: message %q, want %q", c.query, msg, c.want)
		}
		in := p.Doc.Find(`form.audit-filter input[name="` + c.field + `"]`)
		if v, _ := in.Attr("value"); v != c.value {
			t.Errorf("GET /audit?%.40s: the %s field keeps %q, want %q", c.query, c.field, v, c.value)
		}
		if inv, _ := in.Attr("aria-invalid"); inv != "true" {
			t.Errorf("GET /audit?%.40s: the %s field is not marked invalid", c.query, c.field)
		}
		if p.Doc.Find("table.audit").Length() != 0 {
			t.Errorf("GET /audit?%.40s: entries shown under a refused filter", c.query)
		}
	}
	if p := u.Get("/audit?before=abc"); p.Status != http.StatusBadRequest || p.Text(".problem-page") == "" {
		t.Errorf("GET /audit?before=abc: %d, want 400 with a message", p.Status)
	}
	if p := u.Get("/audit.csv?from=31/01/2026"); p.Status != http.StatusBadRequest || !strings.Contains(p.Text(".problem-page"), "From must be a date") {
		t.Errorf("GET /audit.csv with a bad date: %d %q", p.Status, p.Text(".problem-page"))
	}
}

// The download has the exact header, defuses formulas, and can be checked
// by recomputing every hash from its cells alone.
func TestAuditCSV(t *testing.T) {
	eachAuditEngine(t, func(t *testing.T, app *apptest.App, _ *sql.DB) {
		appendEntries(t, app, "alice", 3)
		_, err := app.Store.AppendAudit(context.Background(), apptest.WorkspaceService, store.AuditChange{
			Actor: "mallory", Action: "limit", Account: "=HYPERLINK(\"http://x\")", NewValue: "'quoted", Reason: "-1+1, \"really\"\nsecond line"})
		if err != nil {
			t.Fatal(err)
		}
		u := app.SignIn(t, "trade")
		p := u.Get("/audit.csv")
		if p.Status != http.StatusOK {
			t.Fatalf("GET /audit.csv: %d", p.Status)
		}
		if ct := p.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
			t.Errorf("Content-Type %q", ct)
		}
		if cd := p.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment; filename=creditdash-audit-") {
			t.Errorf("Content-Disposition %q", cd)
		}
		if first, _, _ := strings.Cut(p.Body, "\n"); first != "seq,at,actor,action,account,business_id,old_value,new_value,reason,prev_hash,hash" {
			t.Errorf("header line %q", first)
		}
		records, err := csv.NewReader(strings.NewReader(p.Body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(records) != 1+demoRoleEntries+4 {
			t.Fatalf("%d rows, want %d", len(records)-1, demoRoleEntries+4)
		}
		last := records[len(records)-1]
		if last[4] != `'=HYPERLINK("http://x")` || last[7] != "''quoted" || last[8][0] != '\'' {
			t.Errorf("formula cells not defused: %q", last)
		}
		if !strings.HasSuffix(records[1][1], "Z") || len(records[1][1]) != len("2026-01-02T03:04:05.000000Z") {
			t.Errorf("at %q is not RFC 3339 UTC to the microsecond", records[1][1])
		}
		prev := store.GenesisHash
		for i, row := range records[1:] {
			e, err := store.ParseAuditCSVRecord(row)
			if err != nil {
				t.Fatal(err)
			}
			if e.Seq != int64(i+1) || e.PrevHash != prev || store.AuditHash(prev, e) != e.Hash {
				t.Fatalf("row %d does not verify from its cells: %q", i+1, row)
			}
			prev = e.Hash
		}
		// With a filter, only the matching entries.
		p = u.Get("/audit.csv?actor=mallory")
		if n := strings.Count(p.Body, "\n"); p.Status != http.StatusOK || n != 3 { // header, and one entry of two lines
			t.Errorf("filtered download: %d, %d lines", p.Status, n)
		}
	})
}

// Verification says intact, then names the entry edited by hand in the
// database; deleting a workspace leaves the log, and its page says so.
func TestAuditVerifyPage(t *testing.T) {
	for _, e := range []string{"sqlite", "postgres"} {
		t.Run(e, func(t *testing.T) { auditVerifyPage(t, e) })
	}
}

func auditVerifyPage(t *testing.T, engine string) {
	clock := newClock(time.Now())
	app, db := auditAppAt(t, engine, clock.Now)
	appendEntries(t, app, "alice", 5)
	u := signInWS(t, app, "demo")
	mustRedirect(t, "a note", u.post("/businesses/1001/notes", "text", "Asked for statements."))
	if p := u.Get("/settings/workspace"); !strings.Contains(p.Text(".audit-kept"), "audit trail is not yours to delete and stays") {
		t.Errorf("the workspace page does not say the log stays: %q", p.Text(".audit-kept"))
	}
	mustRedirect(t, "delete workspace", u.post("/settings/workspace", "confirm", "DELETE"))
	want := fmt.Sprintf("Intact, %d entries.", demoRoleEntries+5)
	if p := u.Get("/audit/verify"); p.Status != http.StatusOK || p.Text(".verdict") != want {
		t.Fatalf("GET /audit/verify: %d %q, want %q", p.Status, p.Text(".verdict"), want)
	}
	seq := demoRoleEntries + 3
	if _, err := db.ExecContext(context.Background(), "UPDATE audit_entries SET reason = 'approved by the board' WHERE seq = $1", seq); err != nil {
		t.Fatal(err)
	}
	// The log's head has not moved: the verdict is the one kept, until
	// asked again a minute on.
	if p := u.Get("/audit/verify?again=1"); p.Text(".verdict") != want || !strings.Contains(p.Text("#verdict-kept"), "nothing has been appended since") {
		t.Errorf("within the minute: %q, %q", p.Text(".verdict"), p.Text("#verdict-kept"))
	}
	clock.Advance(time.Minute)
	p := u.Get("/audit/verify?again=1")
	text := p.Text(".verdict")
	if p.Status != http.StatusOK || !strings.Contains(text, fmt.Sprintf("entry %d does not match", seq)) ||
		!strings.Contains(text, "content was changed") || !strings.Contains(text, fmt.Sprintf("The %d entries before it are intact", seq-1)) {
		t.Errorf("after a hand edit: %q", text)
	}
	if link, _ := p.Doc.Find(`a[href^="/audit?before="]`).Attr("href"); link != fmt.Sprintf("/audit?before=%d", seq+1) {
		t.Errorf("link to the broken entry = %q", link)
	}
}
