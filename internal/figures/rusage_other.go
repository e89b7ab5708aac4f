//go:build !linux

package figures

// MaxRSS is 0 where the kernel's rusage has no peak resident memory the
// tool reads.
func (c *Child) MaxRSS() int64 { return 0 }
