package simulator

import (
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
)

// TestConcurrentUse mixes sign-ins, operations, fault changes, counter reads
// and resets from many goroutines; run with -race it shows the state is guarded.
func TestConcurrentUse(t *testing.T) {
	h := newAPIHarness(t, Options{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			user := []string{"demo", "ordinary", "developer", "trade"}[g%4]
			key := h.login(user)
			for i := range 15 {
				switch i % 5 {
				case 0:
					h.get(key, "/v1/Business/Summary", url.Values{"id": {strconv.Itoa(1001 + i%8)}})
				case 1:
					h.get(key, "/v1/Portfolio/PayScoreHistory", url.Values{"type": {"xml"}})
				case 2:
					h.postFaults(`{"error_rate": 0, "error_paths": ["/v1/News"]}`)
				case 3:
					h.get("", "/_sim/requests", nil)
					h.do(http.MethodPost, "/v1/Trade/TradeProviders", key, url.Values{"TradeProviderId": {"TP-1"}})
				case 4:
					h.do(http.MethodPost, "/_sim/reset", "", nil)
					h.get(key, "/v1/Portfolio/Download", nil)
				}
			}
		})
	}
	wg.Wait()
	if r := h.get(h.login("demo"), "/v1/Portfolio/Folders", nil); r.status != 200 {
		t.Errorf("after the storm: status = %d", r.status)
	}
}
