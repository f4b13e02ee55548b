package dipswitch

import "fmt"

// CheckGate answers an error unless percent is a coverage gate: a percentage from 0 to 100.
func CheckGate(percent float64) error {
	if percent < 0 || percent > 100 || percent != percent {
		return fmt.Errorf("a coverage gate is a percentage from 0 to 100, not %g", percent)
	}
	return nil
}
