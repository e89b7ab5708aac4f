package app_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// The tests' app is the production app: the decisions pages are on (cmd/web
// once left them unwired), and the operators' meter counts the service's
// calls and the workspace pool, as /metrics shows them in production.
func TestTestsRunTheProductionWiring(t *testing.T) {
	a := apptest.Start(t, apptest.Options{})
	u := a.SignIn(t, "demo")
	if p := u.Get("/decisions"); p.Status != http.StatusOK {
		t.Fatalf("GET /decisions: status = %d, want 200", p.Status)
	}
	if p := u.Get("/businesses/1001"); p.Status != http.StatusOK {
		t.Fatalf("GET /businesses/1001: status = %d, want 200", p.Status)
	}
	rec := httptest.NewRecorder()
	a.Meter.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	out := string(b)
	for _, want := range []string{
		`creditdash_service_calls_total{op=`,
		`creditdash_http_requests_total{code="200",method="GET",route="/decisions"} 1`,
		`creditdash_dependency_up{`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}
