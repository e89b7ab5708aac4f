//go:build !linux

package figures

import "syscall"

// ChildAttr leaves the children in the tool's process group where the
// kernel offers no parent-death signal: Ctrl+C then reaches them as well.
func ChildAttr(syscall.Signal) *syscall.SysProcAttr { return nil }
