package handlers_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
	"creditdash/internal/store/storetest"
	"creditdash/internal/webhooks"
)

// webhookChanges is how many limit changes one run makes, one every
// webhookGap: a steady trickle, not a burst that measures a queue.
const (
	webhookChanges = 100
	webhookGap     = 50 * time.Millisecond
)

// BenchmarkWebhookDelivery is the time from a change's commit (a limit
// request approved at once, POSTed through the router) to its
// limit.changed arriving, signed, at a receiver on loopback, with
// production's polling (the outbox every 250 ms, the job queue every
// second): p50, p95 and the slowest of 100 changes, in seconds. make bench
// prints it; issue 46's target is p95 <= 5 s. Nothing is asserted.
func BenchmarkWebhookDelivery(b *testing.B) { benchWebhook(b, apptest.Options{}) }

// BenchmarkWebhookDeliveryPostgres is the same on PostgreSQL (under
// scripts/test-postgres.sh; skipped without it), where River hears of new
// jobs at once.
func BenchmarkWebhookDeliveryPostgres(b *testing.B) {
	benchWebhook(b, apptest.Options{DatabaseURL: storetest.Database(b)})
}

func benchWebhook(b *testing.B, opts apptest.Options) {
	opts.Webhooks, opts.WebhookAllowPrivate, opts.WebhookPoll, opts.DigestTick = true, true, webhooks.DefaultPoll, time.Minute
	app := apptest.Start(b, opts)
	var (
		mu      sync.Mutex
		arrived = map[int64]time.Time{}
		secret  string
		forged  int
	)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Now()
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			Data struct {
				RequestID int64 `json:"request_id"`
			} `json:"data"`
		}
		_ = json.Unmarshal(body, &msg)
		mu.Lock()
		defer mu.Unlock()
		if webhooks.Verify(secret, r.Header, body, at, 5*time.Minute) != nil {
			forged++
		}
		if _, seen := arrived[msg.Data.RequestID]; !seen {
			arrived[msg.Data.RequestID] = at
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer rcv.Close()
	a := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	if err := app.Store.AddAccount(b.Context(), a, store.NewAccount{Account: "A-1", Name: "Westbridge", BusinessID: 1001, Reason: "bench"}); err != nil {
		b.Fatal(err)
	}
	u := app.SignIn(b, "demo")
	tok := u.Token("/settings/webhooks")
	made := u.PostForm("/settings/webhooks", url.Values{"_csrf": {tok}, "url": {rcv.URL}, "events": {store.EventLimitChanged}})
	if made.Status != http.StatusCreated {
		b.Fatalf("register: %d %.300s", made.Status, made.Text("main"))
	}
	mu.Lock()
	secret = made.Text("#webhook-secret")
	mu.Unlock()
	for b.Loop() {
		committed := map[int64]time.Time{}
		for i := range webhookChanges {
			p := u.PostForm("/businesses/1001/limit-requests", url.Values{"_csrf": {tok}, "account": {"A-1"},
				"amount": {strconv.Itoa(1000 + i)}, "reason": {"bench"}})
			at := time.Now()
			id, ok := strings.CutPrefix(p.Location(), "/decisions/")
			if p.Status != http.StatusSeeOther || !ok {
				b.Fatalf("request %d: %d to %q", i, p.Status, p.Location())
			}
			n, _ := strconv.ParseInt(strings.SplitN(id, "?", 2)[0], 10, 64)
			committed[n] = at
			time.Sleep(webhookGap)
		}
		deadline := time.Now().Add(2 * time.Minute)
		for {
			mu.Lock()
			n := len(arrived)
			mu.Unlock()
			if n >= len(committed) || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		mu.Lock()
		var lat []time.Duration
		for id, at := range committed {
			if got, ok := arrived[id]; ok {
				lat = append(lat, got.Sub(at))
			}
		}
		bad := forged
		mu.Unlock()
		if len(lat) != len(committed) || bad != 0 {
			b.Fatalf("%d of %d changes arrived within 2 minutes, %d failed verification", len(lat), len(committed), bad)
		}
		slices.Sort(lat)
		b.ReportMetric(lat[len(lat)/2].Seconds(), "s-p50")
		b.ReportMetric(lat[len(lat)*95/100].Seconds(), "s-p95")
		b.ReportMetric(lat[len(lat)-1].Seconds(), "s-max")
	}
}
