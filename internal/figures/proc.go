package figures

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ProcStatus reads a memory field of /proc/<pid>/status (VmRSS: resident
// now; VmHWM: the peak since start or since ResetPeak), in bytes.
func ProcStatus(pid int, field string) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("figures: memory of the dashboard needs Linux /proc: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("figures: /proc/%d/status %s: %w", pid, field, err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("figures: /proc/%d/status has no %s", pid, field)
}

// ResetPeak sets the process's VmHWM back to its current resident size, so
// the next reading is the peak of what follows.
func ResetPeak(pid int) error {
	err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
	if err != nil {
		return fmt.Errorf("figures: resetting the peak memory: %w", err)
	}
	return nil
}
