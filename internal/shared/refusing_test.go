package shared_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/redis/rueidis"

	"creditdash/internal/shared/redistest"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
)

// A server that refuses writes (out of memory under noeviction) is an
// outage, not a slow answer: reads go on at once through each replica's
// own book instead of waiting for a booking that cannot come, and the
// store shows as degraded.
func TestStoreRefusingWritesIsAnOutage(t *testing.T) {
	srv := redistest.Start(t)
	r := newReplicas(t, srv.URL(), 0, cache.Options{})
	who := r.login(t, "ordinary")
	admin, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{strings.TrimSuffix(strings.TrimPrefix(srv.URL(), "redis://"), "/0")}, DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ctx := context.Background()
	set := func(v string) {
		if err := admin.Do(ctx, admin.B().ConfigSet().ParameterValue().ParameterValue("maxmemory-policy", "noeviction").ParameterValue("maxmemory", v).Build()).Error(); err != nil {
			t.Fatal(err)
		}
	}
	set("1")
	defer set("0")

	for i, id := range []int32{1001, 1002, 1003, 1004} {
		// Far more than the store's timeouts, far less than waiting for a
		// booking until the page gives up.
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := r.a.Reader(who).Summary(rctx, upstream.ByID(id))
		cancel()
		if err != nil {
			t.Errorf("read %d with the store refusing writes: %v", i, err)
		}
	}
	if r.sa.Degraded() == nil {
		t.Error("the store refuses every write, yet it is not shown as degraded")
	}
}
