// Package bluetoothdriver renders SCTBench CS/bluetooth_driver_bad.c in Go: a
// simplified Windows Bluetooth driver whose stop routine can release the
// device while an add routine still uses it. __ESBMC_atomic blocks become
// one global mutex; the flags stay plain variables.
package bluetoothdriver

import "sync"

// Device is the driver's device extension.
type Device struct {
	PendingIo     int
	StoppingFlag  bool
	StoppingEvent bool
}

var (
	atomicMu *sync.Mutex
	stopped  bool
)

// NewDevice resets the globals and returns the device main() builds.
func NewDevice() *Device {
	atomicMu = new(sync.Mutex)
	stopped = false
	return &Device{PendingIo: 1}
}

func ioIncrement(e *Device) int {
	if e.StoppingFlag {
		return -1
	}
	atomicMu.Lock()
	e.PendingIo = e.PendingIo + 1
	atomicMu.Unlock()
	return 0
}

func ioDecrement(e *Device) {
	atomicMu.Lock()
	e.PendingIo = e.PendingIo - 1
	pending := e.PendingIo
	atomicMu.Unlock()
	if pending == 0 {
		e.StoppingEvent = true
	}
}

// PnpAdd does work on the device; the device must not be stopped meanwhile.
func PnpAdd(e *Device, fail func(string)) {
	if ioIncrement(e) == 0 {
		if stopped {
			fail("bluetooth_driver: device used after stop")
		}
	}
	ioDecrement(e)
}

// PnpStop stops the device.
func PnpStop(e *Device) {
	e.StoppingFlag = true
	ioDecrement(e)
	if e.StoppingEvent {
		stopped = true
	}
}
