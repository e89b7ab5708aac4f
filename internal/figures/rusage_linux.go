package figures

import "syscall"

// MaxRSS is the peak resident memory of a child that has exited, over its
// whole life, in bytes (the kernel's rusage, read after Stop); 0 while it
// runs.
func (c *Child) MaxRSS() int64 {
	select {
	case <-c.done:
	default:
		return 0
	}
	if ru, ok := c.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10 // Linux counts it in KiB
	}
	return 0
}
