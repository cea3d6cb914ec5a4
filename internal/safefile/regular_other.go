//go:build !unix

package safefile

import "os"

// openNoWait opens path for reading; openRegular has checked its kind.
func openNoWait(path string) (*os.File, error) { return os.Open(path) }
