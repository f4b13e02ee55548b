//go:build !linux

package dipswitch

import "syscall"

// dieWithParent: elsewhere the started server is stopped by Stop (or at its own end).
func dieWithParent() *syscall.SysProcAttr { return nil }
