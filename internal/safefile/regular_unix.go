//go:build unix

package safefile

import (
	"os"
	"syscall"
)

// openNoWait opens path for reading without waiting: on a named pipe
// O_NONBLOCK returns at once instead of blocking until a writer opens it.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
