package workbooks

import (
	"errors"
	"fmt"
	"io/fs"

	"planner/internal/safefile"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/sheets"
)

// Save replaces the file at path with data atomically, unless it is no
// longer was, the file as planner read it (Book.Original, Init's,
// CheckOutput's; the zero Original for none): then it writes nothing and
// returns a *safefile.ChangedError (see safefile.Save). The caller holds
// safefile.Lock(path); Save then also clears the temporary files a killed
// save of planner's left behind: they begin as every workbook planner
// writes begins.
func Save(path string, data []byte, was safefile.Original) error {
	return safefile.Save(path, data, was, safefile.Options{Signature: ooxml.Header()})
}

// RunAgain adds to Save's refusal of a file that changed while planner
// ran the advice to run command, the same command line, again; any other
// error it returns as it is.
func RunAgain(err error, command string) error {
	var changed *safefile.ChangedError
	if errors.As(err, &changed) {
		return fmt.Errorf("%w: run %s again", err, command)
	}
	return err
}

// Same reports whether two workbooks hold the same parts with the same
// contents, whatever their compression, reading a block at a time.
func Same(a, b []byte) bool { return ooxml.Same(a, b) }

// Data returns the workbook's bytes as read.
func (b *Book) Data() []byte { return b.data }

// Original is the file as Read read it, which Save checks is still there
// before replacing it; none for a workbook read from bytes.
func (b *Book) Original() safefile.Original { return b.file }

// CheckOutput refuses to overwrite a file that planner did not write: -o
// names a copy to create or a previous what-if to replace, never someone's
// other workbook typed by mistake. It returns the file as read (none when
// there is none), which Save checks is still there.
func CheckOutput(path string) (safefile.Original, error) {
	data, was, err := safefile.ReadOriginal(path, maxFileBytes)
	var notFile *safefile.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return was, nil
	case errors.As(err, &notFile):
		return was, fmt.Errorf("%s: is %s; -o names a workbook file to create, or one planner wrote before: choose another name for -o", path, notFile.What)
	}
	notOurs := fmt.Errorf("%s: exists and was not written by planner eval; planner does not overwrite it: choose another name for -o, or delete the file", path)
	if err != nil || ooxml.Sniff(path, data) != nil {
		return was, notOurs
	}
	f, err := openSheets(path, data, []string{sheets.Results})
	if err != nil {
		return was, notOurs
	}
	defer f.Close()
	mark, _ := f.GetCellValue(sheets.Results, cellName(1, sheets.ProvenanceRow))
	if _, ours := sheets.Computed(mark); !ours {
		return was, notOurs
	}
	return was, nil
}
