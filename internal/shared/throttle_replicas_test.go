package shared_test

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/shared/redistest"
	"creditdash/internal/upstream/simulator"
)

// Parallel wrong passwords for one name, spread over two replicas in front
// of a slow service, reach the service at most the ten the throttle
// allows: each replica reserves the attempt in the shared store before
// asking.
func TestThrottleHoldsParallelAttemptsAcrossReplicas(t *testing.T) {
	a, b := twoReplicas(t, redistest.URL(t), 0)
	a.Sim.SetFaults(simulator.Faults{Latency: 300 * time.Millisecond})
	users := make([]*apptest.User, 30)
	for i := range users {
		users[i] = a.NewUser(t)
		if i%2 == 1 {
			users[i] = users[i].On(b)
		}
	}
	var wrong, held atomic.Int32
	var wg sync.WaitGroup
	for _, u := range users {
		wg.Go(func() {
			switch u.Login("demo", "wrong", "").Status {
			case http.StatusUnauthorized:
				wrong.Add(1)
			case http.StatusTooManyRequests:
				held.Add(1)
			}
		})
	}
	wg.Wait()
	if wrong.Load() > 10 || wrong.Load()+held.Load() != 30 {
		t.Errorf("%d of 30 parallel wrong passwords on two replicas reached the service (%d held), want at most 10",
			wrong.Load(), held.Load())
	}
}
