//go:build go1.21 && unix

package rt

import (
	"os"
	"syscall"
	"time"
)

// SyscallKill is syscall.Kill(pid, sig).
func SyscallKill(site string, pid int, sig syscall.Signal) error {
	err := syscall.Kill(pid, sig)
	if err == nil && sig != 0 && (pid == os.Getpid() || pid == 0 || pid == -os.Getpid()) {
		e := eng
		e.mu.Lock()
		e.signalAt = time.Now()
		e.mu.Unlock()
	}
	return err
}
