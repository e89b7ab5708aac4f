package handlers_test

import (
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/roles"
	"creditdash/internal/store"
	"creditdash/internal/store/storetest"
	"creditdash/internal/webhooks"
)

// received is one message a test receiver got.
type received struct {
	ID, Type string
	Verified bool
	Status   int
}

// receiver is an endpoint on loopback that checks each message's
// signature with the secret it is given once registered, answers 500 to
// the first message and 204 to every other.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	secret string
	got    []received
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var msg struct{ Type string }
		_ = json.Unmarshal(body, &msg)
		r.mu.Lock()
		defer r.mu.Unlock()
		m := received{ID: req.Header.Get("webhook-id"), Type: msg.Type, Status: http.StatusNoContent,
			Verified: webhooks.Verify(r.secret, req.Header, body, time.Now(), 5*time.Minute) == nil}
		if len(r.got) == 0 {
			m.Status = http.StatusInternalServerError
		}
		r.got = append(r.got, m)
		w.WriteHeader(m.Status)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) setSecret(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secret = s
}

func (r *receiver) messages() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// webhookApps runs fn on SQLite and PostgreSQL with webhooks on, private
// addresses allowed as asked, and the roles: two managers, an analyst
// and an auditor.
func webhookApps(t *testing.T, allowPrivate bool, fn func(t *testing.T, app *apptest.App)) {
	table, err := roles.Parse("test", "demo=manager:250000,ordinary=manager:1000000,developer=analyst:10000,trade=auditor", 0)
	if err != nil {
		t.Fatal(err)
	}
	opts := apptest.Options{Roles: table, Webhooks: true, WebhookAllowPrivate: allowPrivate}
	t.Run("sqlite", func(t *testing.T) { fn(t, apptest.Start(t, opts)) })
	t.Run("postgres", func(t *testing.T) {
		opts.DatabaseURL = storetest.Database(t)
		fn(t, apptest.Start(t, opts))
	})
}

// TestWebhookDeliveredSignedRetriedReplayed: a manager registers a
// receiver on loopback (WEBHOOK_ALLOW_PRIVATE on) and is shown its secret
// once; an approved limit sends limit.changed and decision.made, signed;
// the receiver's 500 brings the same webhook-id again; the log says
// delivered, 204, two attempts; a replay sends the same webhook-id a
// third time; analysts and auditors may read the page but not change it.
func TestWebhookDeliveredSignedRetriedReplayed(t *testing.T) {
	webhookApps(t, true, func(t *testing.T, app *apptest.App) {
		rcv := newReceiver(t)
		demo := signInAccounts(t, app, "demo")
		if p := demo.Get("/settings/webhooks"); p.Status != http.StatusOK || p.Doc.Find("form[action='/settings/webhooks']").Length() != 1 {
			t.Fatalf("page: %d, form %d", p.Status, p.Doc.Find("form[action='/settings/webhooks']").Length())
		}
		none := demo.post("/settings/webhooks", "url", rcv.URL+"/hooks")
		if none.Status != http.StatusUnprocessableEntity || none.Text("#webhook-events-error") == "" {
			t.Fatalf("no events: %d, %q", none.Status, none.Text("#webhook-events-error"))
		}
		made := demo.post("/settings/webhooks", "url", rcv.URL+"/hooks", "events", "limit.changed", "events", "decision.made")
		secret := made.Text("#webhook-secret")
		if made.Status != http.StatusCreated || !strings.HasPrefix(secret, "whsec_") {
			t.Fatalf("register: %d, secret %q; body %.400s", made.Status, secret, made.Body)
		}
		rcv.setSecret(secret)
		if p := demo.Get("/settings/webhooks"); strings.Contains(p.Body, secret) || !strings.Contains(p.Text("#webhook-endpoints"), rcv.URL+"/hooks") {
			t.Fatal("the secret shows again, or the endpoint is not listed")
		}

		dev := signInAccounts(t, app, "developer")
		importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30") // import.completed: not taken
		mustRedirect(t, "request", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "8000", "reason", "Orders doubled"))

		var first string
		waitFor(t, "the first message twice and the second once", func() bool {
			ms := rcv.messages()
			if len(ms) < 3 {
				return false
			}
			first = ms[0].ID
			seen := 0
			for _, m := range ms {
				if m.ID == first {
					seen++
				}
			}
			return seen == 2
		})
		types := map[string]bool{}
		for _, m := range rcv.messages() {
			if !m.Verified {
				t.Errorf("message %s (%s) failed signature verification", m.ID, m.Type)
			}
			types[m.Type] = true
		}
		if !types["limit.changed"] || !types["decision.made"] || len(types) != 2 {
			t.Errorf("types received %v, want limit.changed and decision.made only", types)
		}

		var row string
		waitFor(t, "the log to show the retried delivery delivered", func() bool {
			row = demo.Get("/settings/webhooks").Text("#webhook-deliveries tr:has(code:contains('" + first + "'))")
			return strings.Contains(row, "delivered")
		})
		log := demo.Get("/settings/webhooks")
		tr := log.Doc.Find("#webhook-deliveries tr:has(code:contains('" + first + "'))")
		if tr.Find(".delivery-code").Text() != "204" || strings.TrimSpace(tr.Find(".delivery-attempts").Text()) != "2" {
			t.Errorf("log row = %q", strings.Join(strings.Fields(tr.Text()), " "))
		}
		id, _ := tr.Attr("data-delivery")
		replay := "/settings/webhooks/deliveries/" + id + "/replay"
		wantRefused(t, "an analyst replaying", dev.post(replay), "Only managers register, remove and replay")
		trade := signInAccounts(t, app, "trade")
		if p := trade.Get("/settings/webhooks"); p.Status != http.StatusOK || p.Doc.Find("form").Length() > 1 {
			t.Errorf("auditor's page: %d with %d forms", p.Status, p.Doc.Find("form").Length())
		}
		if p := demo.PostForm(replay, url.Values{}); p.Status != http.StatusForbidden {
			t.Errorf("a replay without the CSRF token: %d, want 403", p.Status)
		}
		if p := demo.post("/settings/webhooks/deliveries/42/replay"); p.Status != http.StatusNotFound {
			t.Errorf("replaying no delivery: %d", p.Status)
		}
		before := len(rcv.messages())
		if to := mustRedirect(t, "replay", demo.post(replay)); to != "/settings/webhooks?done=replayed" {
			t.Errorf("replay went to %q", to)
		}
		waitFor(t, "the replay, as the same message", func() bool {
			ms := rcv.messages()
			return len(ms) > before && ms[len(ms)-1].ID == first && ms[len(ms)-1].Verified
		})
		audit := demo.Get("/audit?action=webhook-replay").Text("table.audit")
		if !strings.Contains(audit, first) {
			t.Errorf("the replay is not in the audit trail: %q", audit)
		}
		if !strings.Contains(demo.Get("/audit?action=webhook-add").Text("table.audit"), rcv.URL) {
			t.Error("the registration is not in the audit trail")
		}
	})
}

// TestWebhookRefusesPrivateAddresses: without WEBHOOK_ALLOW_PRIVATE,
// loopback, private, link-local and "localhost" endpoints are refused
// with the address kept in the form, as is plain http; nothing is
// registered.
func TestWebhookRefusesPrivateAddresses(t *testing.T) {
	webhookApps(t, false, func(t *testing.T, app *apptest.App) {
		demo := signInAccounts(t, app, "demo")
		for _, u := range []string{"https://127.0.0.1:8443/hooks", "https://10.1.2.3/hooks", "https://[::1]/x",
			"https://169.254.169.254/latest/meta-data", "https://localhost/hooks", "https://[::ffff:192.168.0.1]/x", "https://0.0.0.0/"} {
			p := demo.post("/settings/webhooks", "url", u, "events", "alert.raised")
			if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text("#webhook-url-error"), "private") {
				t.Errorf("%s: %d, %q", u, p.Status, p.Text("#webhook-url-error"))
			}
			if v, _ := p.Doc.Find("#webhook-url").Attr("value"); v != u {
				t.Errorf("%s: the form kept %q", u, v)
			}
		}
		p := demo.post("/settings/webhooks", "url", "http://erp.example.com/hooks", "events", "alert.raised")
		if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text("#webhook-url-error"), "https://") {
			t.Errorf("plain http: %d, %q", p.Status, p.Text("#webhook-url-error"))
		}
		if p := demo.Get("/settings/webhooks"); p.Doc.Find("#webhook-endpoints").Length() != 0 {
			t.Error("a refused endpoint was registered")
		}
	})
}

// TestWebhookOutboxRollsBackWithItsChange: a limit change that fails
// after its events were written (the database refuses its audit entry,
// through a trigger the test adds) leaves no event and sends nothing; the
// same change once the database takes it is delivered, each event once.
func TestWebhookOutboxRollsBackWithItsChange(t *testing.T) {
	table, err := roles.Parse("test", "demo=manager:250000,developer=analyst:10000", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			opts := apptest.Options{Roles: table, Webhooks: true, WebhookAllowPrivate: true}
			driver, dsn := "sqlite", ""
			refuse := []string{`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_entries BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`}
			allow := "DROP TRIGGER refuse_audit"
			if engine == "postgres" {
				opts.DatabaseURL = storetest.Database(t)
				driver, dsn = "pgx", opts.DatabaseURL
				refuse = []string{`CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
					`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_entries FOR EACH ROW EXECUTE FUNCTION refuse_audit()`}
				allow = "DROP TRIGGER refuse_audit ON audit_entries"
			} else {
				opts.DataDir = t.TempDir()
				dsn = "file:" + filepath.Join(opts.DataDir, store.FileName) + "?_pragma=busy_timeout(5000)"
			}
			app := apptest.Start(t, opts)
			db, err := sql.Open(driver, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			exec := func(q string) {
				t.Helper()
				if _, err := db.ExecContext(t.Context(), q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			events := func() int {
				t.Helper()
				var n int
				if err := db.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM webhook_events").Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}

			rcv := newReceiver(t)
			demo := signInAccounts(t, app, "demo")
			made := demo.post("/settings/webhooks", "url", rcv.URL, "events", "limit.changed", "events", "decision.made")
			rcv.setSecret(made.Text("#webhook-secret"))
			dev := signInAccounts(t, app, "developer")
			importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")

			for _, q := range refuse {
				exec(q)
			}
			if p := dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "8000", "reason", "Orders doubled"); p.Status == http.StatusSeeOther {
				t.Fatal("the change went through with its audit entry refused")
			}
			if n := events(); n != 0 {
				t.Fatalf("a failed change left %d events", n)
			}
			exec(allow)
			mustRedirect(t, "request", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "8000", "reason", "Orders doubled"))
			waitFor(t, "both events delivered", func() bool {
				ids := map[string]bool{}
				for _, m := range rcv.messages() {
					if m.Status == http.StatusNoContent {
						ids[m.ID] = true
					}
				}
				return len(ids) == 2
			})
			if n := events(); n != 2 {
				t.Errorf("%d events, want the change's 2", n)
			}
			if got := demo.Get("/accounts").Text("main"); !strings.Contains(got, "8,000") {
				t.Errorf("the limit in force after the change: %.300q", got)
			}
		})
	}
}
