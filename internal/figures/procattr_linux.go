package figures

import "syscall"

// ChildAttr puts a child in its own process group and has the kernel send
// it sig should the tool die without cleaning up (kill -9, a crash).
func ChildAttr(sig syscall.Signal) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: sig}
}
