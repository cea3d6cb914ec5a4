package workbooks

import (
	"errors"
	"fmt"
	"io/fs"

	"planner/internal/safefile"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/sheets"
)

// Save replaces the file at path with data atomically (see safefile.Save).
// The caller holds safefile.Lock(path); Save then also clears the
// temporary files a killed save of planner's left behind: they begin as
// every workbook planner writes begins.
func Save(path string, data []byte) error {
	return safefile.Save(path, data, safefile.Options{Signature: ooxml.Header()})
}

// Same reports whether two workbooks hold the same parts with the same
// contents, whatever their compression, reading a block at a time.
func Same(a, b []byte) bool { return ooxml.Same(a, b) }

// Data returns the workbook's bytes as read.
func (b *Book) Data() []byte { return b.data }

// CheckOutput refuses to overwrite a file that planner did not write: -o
// names a copy to create or a previous what-if to replace, never someone's
// other workbook typed by mistake.
func CheckOutput(path string) error {
	data, err := safefile.Read(path, maxFileBytes)
	var notFile *safefile.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.As(err, &notFile):
		return fmt.Errorf("%s: is %s; -o names a workbook file to create, or one planner wrote before: choose another name for -o", path, notFile.What)
	}
	notOurs := fmt.Errorf("%s: exists and was not written by planner eval; planner does not overwrite it: choose another name for -o, or delete the file", path)
	if err != nil || ooxml.Sniff(path, data) != nil {
		return notOurs
	}
	f, err := openSheets(path, data, []string{sheets.Results})
	if err != nil {
		return notOurs
	}
	defer f.Close()
	mark, _ := f.GetCellValue(sheets.Results, cellName(1, sheets.ProvenanceRow))
	if _, ours := sheets.Computed(mark); !ours {
		return notOurs
	}
	return nil
}
