package dipswitch

import "syscall"

// dieWithParent: the started server is sent SIGTERM when this process dies, even by SIGKILL.
func dieWithParent() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM} }
