package main

import "syscall"

// childAttr puts a child in its own process group and has the kernel send
// it sig should this command die without cleaning up (kill -9, a crash).
func childAttr(sig syscall.Signal) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: sig}
}
