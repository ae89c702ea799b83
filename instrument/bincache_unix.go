//go:build unix

package instrument

import (
	"os"
	"syscall"
)

const haveFileLocks = true

// lockFile takes an exclusive lock on name (created if need be), waiting
// for other processes; the lock dies with the process.
func lockFile(name string) (unlock func(), err error) {
	return flock(name, syscall.LOCK_EX)
}

// tryLockFile is lockFile without waiting.
func tryLockFile(name string) (unlock func(), err error) {
	return flock(name, syscall.LOCK_EX|syscall.LOCK_NB)
}

func flock(name string, how int) (func(), error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
