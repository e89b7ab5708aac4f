//go:build !linux

package main

import "syscall"

// childAttr leaves the children in the load tool's process group where the
// kernel offers no parent-death signal: Ctrl+C then reaches them as well.
func childAttr() *syscall.SysProcAttr { return nil }
