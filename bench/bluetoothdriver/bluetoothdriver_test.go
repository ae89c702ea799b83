package bluetoothdriver

import "testing"

// Bug: add passes the stoppingFlag check, stop then decrements to 0 and marks the device
// stopped, and add's assertion sees stopped.
// period:want fail
func TestBluetoothDriver(t *testing.T) {
	e := NewDevice()
	done := make(chan struct{})
	go func() { defer close(done); PnpStop(e) }()
	PnpAdd(e, func(s string) { t.Error(s) })
	<-done
}
