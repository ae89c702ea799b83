//go:build !unix

package instrument

// haveFileLocks: without them the binary cache is off (DefaultBinCache).
const haveFileLocks = false

func lockFile(string) (func(), error)    { return nil, errNoLock }
func tryLockFile(string) (func(), error) { return nil, errNoLock }
