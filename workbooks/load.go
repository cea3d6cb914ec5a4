package workbooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"planner/internal/safefile"
	"planner/workbooks/internal/ooxml"
)

// maxFileBytes bounds the .xlsx file planner reads. A cost-model workbook
// is kilobytes; this leaves room for large real workbooks and stops hostile
// ones (ooxml bounds what its parts inflate to).
const maxFileBytes = 256 << 20

// load reads a workbook's bytes, and the file as read for a save to check
// against, and says plainly what the file is when it is not an xlsx
// workbook planner can read.
func load(path string) ([]byte, safefile.Original, error) {
	data, was, err := safefile.ReadOriginal(path, maxFileBytes)
	var notFile *safefile.NotRegularError
	var tooLarge *safefile.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
			return nil, was, fmt.Errorf("%s: no such file, nor a folder %s", path, filepath.Dir(path))
		}
		return nil, was, fmt.Errorf("%s: no such file; %s creates a workbook there", path, Command("init", path))
	case errors.As(err, &notFile), errors.As(err, &tooLarge):
		return nil, was, err
	case err != nil:
		return nil, was, fmt.Errorf("%s: %w", path, err)
	}
	return data, was, ooxml.Sniff(path, data)
}
