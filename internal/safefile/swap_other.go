//go:build !linux

package safefile

// swapNames cannot swap names on this platform: replace checks, and renames.
func swapNames(tmp, real string, create bool) error { return errCannotSwap }
