package simulator

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func (h *apiHarness) postFaults(body string) apiReply {
	h.t.Helper()
	resp, err := h.ts.Client().Post(h.ts.URL+"/_sim/faults", "application/json", strings.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return apiReply{status: resp.StatusCode, header: resp.Header, body: b}
}

func TestInjectedErrors(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("ordinary")
	id := url.Values{"id": {"1001"}}
	if r := h.postFaults(`{"error_rate": 1}`); r.status != 200 {
		t.Fatalf("POST faults: %d %s", r.status, r.body)
	}
	r := h.get(key, "/v1/Business/Summary", id)
	wantError(t, "error_rate 1", r, 500, CodeInternalError)
	if r.header.Get("X-RateLimit-Remaining") != "9" {
		t.Errorf("an injected 500 still counts and carries the quota: Remaining = %q", r.header.Get("X-RateLimit-Remaining"))
	}
	wantError(t, "sign-in fails too", h.do(http.MethodPost, "/v1/Users/Login", "", url.Values{"Username": {"demo"}, "Password": {"demo"}}), 500, CodeInternalError)

	// error_paths narrows the failures to one section; 429 looks like a real limit.
	h.postFaults(`{"error_paths": ["/v1/Business/Officers"], "error_status": 429}`)
	if r := h.get(key, "/v1/Business/Summary", id); r.status != 200 {
		t.Errorf("Summary outside error_paths: status = %d", r.status)
	}
	r = h.get(key, "/v1/Business/Officers", id)
	wantError(t, "Officers in error_paths", r, 429, CodeRateLimitExceeded)
	if r.header.Get("Retry-After") == "" {
		t.Error("injected 429 without Retry-After")
	}
	for status, code := range map[int]string{502: CodeBadGateway, 503: CodeUnavailable} {
		h.postFaults(`{"error_status": ` + strconv.Itoa(status) + `}`)
		wantError(t, "injected "+strconv.Itoa(status), h.get(key, "/v1/Business/Officers", id), status, code)
	}
	h.postFaults(`{"error_rate": 0}`)
	if r := h.get(key, "/v1/Business/Officers", id); r.status != 200 {
		t.Errorf("error_rate 0: status = %d", r.status)
	}
	// Hooks are never faulted.
	h.postFaults(`{"error_rate": 1, "error_paths": []}`)
	if r := h.get("", "/_sim/requests", nil); r.status != 200 {
		t.Errorf("/_sim/requests under faults: status = %d", r.status)
	}
}

func TestFaultsHook(t *testing.T) {
	h := newAPIHarness(t, Options{Latency: 5 * time.Millisecond})
	var f map[string]any
	if err := json.Unmarshal(h.get("", "/_sim/faults", nil).body, &f); err != nil {
		t.Fatal(err)
	}
	wantKeys(t, "faults", f, "latency", "jitter", "error_rate", "error_paths", "error_status", "download_fail_after")
	if f["latency"] != "5ms" || f["error_status"] != 500.0 {
		t.Errorf("initial faults = %v", f)
	}
	h.postFaults(`{"jitter": "2ms", "error_rate": 0.25}`)
	got := h.srv.Faults()
	if got.Latency != 5*time.Millisecond || got.Jitter != 2*time.Millisecond || got.ErrorRate != 0.25 {
		t.Errorf("after a partial update: %+v, want latency kept", got)
	}
	for _, bad := range []string{`{"error_rate": 2}`, `{"latency": "soon"}`, `{"latency": "-1s"}`,
		`{"error_status": 404}`, `{"error_paths": ["/Business"]}`, `{"download_fail_after": -1}`, `{"nope": 1}`, `not json`} {
		r := h.postFaults(bad)
		wantError(t, "faults "+bad, r, 400, CodeInvalidParameter)
	}
	if h.srv.Faults().ErrorRate != 0.25 {
		t.Error("a refused update changed the faults")
	}
	wantError(t, "DELETE faults", h.do(http.MethodDelete, "/_sim/faults", "", nil), 405, CodeMethodNotAllowed)
	wantError(t, "unknown hook", h.get("", "/_sim/nope", nil), 404, CodeNotFound)
}

func TestLatency(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	h.srv.SetFaults(Faults{Latency: 80 * time.Millisecond})
	start := time.Now()
	h.get(key, "/v1/Portfolio/Folders", nil)
	if d := time.Since(start); d < 80*time.Millisecond {
		t.Errorf("with 80ms latency the answer took %v", d)
	}
	// A client that gives up is not kept waiting, and the server stops too.
	h.srv.SetFaults(Faults{Latency: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, h.ts.URL+"/v1/Portfolio/Folders", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	start = time.Now()
	_, err := h.ts.Client().Do(req)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Errorf("cancelled request: err = %v after %v", err, time.Since(start))
	}
	h.srv.SetFaults(Faults{})
}

func TestRequestsHook(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	h.get(key, "/v1/Business/Summary", url.Values{"id": {"1001"}})
	h.get(key, "/v1/Business/Summary", url.Values{"id": {"abc"}})
	h.get(key, "/v1/Portfolio/Folders/11/News", nil)
	h.do(http.MethodPost, "/v1/Users/Login", "", url.Values{"Username": {"demo"}, "Password": {"bad"}})
	h.get("", "/v1/Portfolio/Folders", nil) // names no one
	var got map[string]map[string]int
	if err := json.Unmarshal(h.get("", "/_sim/requests", nil).body, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"/v1/Users/Login": 2, "/v1/Business/Summary": 2, "/v1/Portfolio/Folders/11/News": 1}
	if len(got) != 1 || len(got["demo"]) != len(want) {
		t.Fatalf("requests = %v, want demo: %v", got, want)
	}
	for p, n := range want {
		if got["demo"][p] != n {
			t.Errorf("requests[demo][%s] = %d, want %d", p, got["demo"][p], n)
		}
	}
	h.do(http.MethodPost, "/_sim/reset", "", nil)
	if n := len(h.srv.Requests()); n != 0 {
		t.Errorf("after reset: %d users counted", n)
	}
}
