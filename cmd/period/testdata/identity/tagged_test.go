//go:build identitytag

package identity

import "testing"

// TestTagged exists only when built with -tags identitytag.
func TestTagged(t *testing.T) { count(t) }
