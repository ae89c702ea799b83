package modern

import "testing"

func TestSendConversions(t *testing.T) {
	area, called, sum, err := SendConversions()
	if area != 9 || !called || sum != 42 || err != nil {
		t.Errorf("SendConversions() = %d, %v, %d, %v; want 9, true, 42, nil", area, called, sum, err)
	}
}
