//go:build unix

package evaluate

import (
	"io/fs"
	"os"
	"syscall"
)

// readFlags open a memory without following a link or waiting on a pipe.
const readFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// ownedByUser reports whether the user planner runs as owns the file.
func ownedByUser(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
