package figures

import "syscall"

// childAttr puts a child in its own process group and has the kernel kill
// it should the tool die without cleaning up (kill -9, a crash).
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
