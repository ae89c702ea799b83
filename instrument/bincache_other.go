//go:build !unix

package instrument

func lockFile(string) (func(), error)    { return nil, errNoLock }
func tryLockFile(string) (func(), error) { return nil, errNoLock }
