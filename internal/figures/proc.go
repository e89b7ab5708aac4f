package figures

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
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

// userHZ is the kernel's clock tick for process times in /proc: 100 on
// every Linux architecture Go builds for.
const userHZ = 100

// ProcCPU reads the CPU time a process has used so far, user and system,
// from /proc/<pid>/stat.
func ProcCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("figures: CPU time of the dashboard needs Linux /proc: %w", err)
	}
	// The command name is in parentheses and may hold spaces; the fields
	// after it start with the state (field 3), so utime (14) and stime
	// (15) are the 12th and 13th.
	i := bytes.LastIndexByte(data, ')')
	fields := strings.Fields(string(data[i+1:]))
	if i < 0 || len(fields) < 13 {
		return 0, fmt.Errorf("figures: /proc/%d/stat is not as expected", pid)
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("figures: /proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}
