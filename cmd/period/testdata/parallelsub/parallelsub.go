// Package parallelsub has parallel subtests in a go 1.21 module, where a
// range loop writes its variables at every iteration.
package parallelsub
