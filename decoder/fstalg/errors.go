package fstalg

import "errors"

var (
	// ErrTooLarge is returned when a result would exceed its MaxStates
	// bound (an undeterminizable input, or a graph far larger than meant).
	ErrTooLarge = errors.New("FST algorithm: result too large")
	// ErrNonFunctional is returned by DeterminizeStar when two paths with
	// the same input give different outputs (disambiguation symbols are
	// missing), so no deterministic equivalent exists.
	ErrNonFunctional = errors.New("FST is not functional (cannot be determinized; missing disambiguation symbols?)")
)
