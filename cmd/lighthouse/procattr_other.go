//go:build !linux

package main

import "syscall"

// childAttr leaves the children in this command's process group where the
// kernel offers no parent-death signal: Ctrl+C then reaches them as well.
func childAttr(syscall.Signal) *syscall.SysProcAttr { return nil }
