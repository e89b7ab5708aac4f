package figures

import (
	"os"
	"runtime"
	"testing"
	"time"
)

func TestProcCPUGrowsWithWork(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads Linux /proc")
	}
	before, err := ProcCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	// Spin until the kernel has counted at least two ticks more.
	deadline := time.Now().Add(5 * time.Second)
	var after time.Duration
	for time.Now().Before(deadline) {
		if after, err = ProcCPU(os.Getpid()); err != nil {
			t.Fatal(err)
		}
		if after >= before+20*time.Millisecond {
			return
		}
	}
	t.Fatalf("CPU time went from %v to %v in 5 s of spinning", before, after)
}
