//go:build !linux

package figures

import "syscall"

// childAttr leaves the children in the tool's process group where the
// kernel offers no parent-death signal: Ctrl+C then reaches them as well.
func childAttr() *syscall.SysProcAttr { return nil }
