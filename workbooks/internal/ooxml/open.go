package ooxml

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/xuri/excelize/v2"
)

// Limits on what planner reads. A cost-model workbook is kilobytes; these
// leave room for large real workbooks and stop hostile ones.
const (
	maxUnzippedBytes = 1 << 30  // all parts inflated
	MaxPartInMemory  = 64 << 20 // the largest part excelize is given to rewrite
	// Reading, excelize spools shared strings and sheets past this size to
	// temporary files and keeps an index of the strings, about 100 bytes
	// each; below it, it holds them in its model, about 400 bytes a string.
	maxReadInMemory = 4 << 20
	// MaxSharedStrings bounds that index.
	MaxSharedStrings = 4000000
)

var (
	oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	zipMagic = []byte("PK\x03\x04")
)

// Sniff recognises the files people hand planner by mistake, saying what
// each is: not a zip, an .xls or .ods file, a Word document, an encrypted
// workbook, a zip bomb, a zip with no workbook in it.
func Sniff(path string, data []byte) error {
	switch {
	case len(data) == 0:
		return fmt.Errorf("%s: is empty (0 bytes), not a workbook", path)
	case bytes.HasPrefix(data, oleMagic):
		if bytes.Contains(data, utf16("EncryptionInfo")) {
			return fmt.Errorf("%s: is encrypted with a password; planner does not read encrypted workbooks: save a copy without a password", path)
		}
		return fmt.Errorf("%s: is an Excel 97-2003 workbook (.xls); open it in Excel or LibreOffice and save it as .xlsx", path)
	case !bytes.HasPrefix(data, zipMagic):
		return fmt.Errorf("%s: is not an xlsx workbook (an xlsx file is a zip archive, and this is not one)", path)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("%s: is a damaged zip archive (%v); it may have been cut short while copying", path, err)
	}
	files := map[string]*zip.File{}
	var inflated uint64
	backslashed := ""
	for _, f := range zr.File {
		// What the archive says its parts inflate to, checked before any is:
		// a zip bomb is refused before it costs memory. (A part that
		// inflates past what it declares fails when read.)
		if inflated += f.UncompressedSize64; inflated > maxUnzippedBytes {
			return fmt.Errorf("%s: inflates to more than %d MB (a zip bomb, or not a workbook planner should open); planner reads workbooks up to that", path, maxUnzippedBytes>>20)
		}
		if strings.EqualFold(f.Name, "mimetype") {
			return fmt.Errorf("%s: is an OpenDocument file (.ods); save it as .xlsx", path)
		}
		if strings.Contains(f.Name, `\`) && (backslashed == "" || f.Name < backslashed) {
			backslashed = f.Name
		}
		if files[f.Name] == nil {
			files[f.Name] = f
		}
	}
	get := func(name string) []byte { return smallPart(files[name]) }
	main, _, _ := mainPart(files, get)
	if main == "" {
		main = entryFold(files, WorkbookPart) // a package without the relationship: the part at its usual name
	}
	types := entryFold(files, ContentTypes)
	switch {
	case main != "" && types != "":
		return sniffMain(path, main, get(types))
	case backslashed != "":
		return fmt.Errorf("%s: is a zip archive whose part names use backslashes (%s), which an xlsx package may not, so planner cannot read it as a workbook; if a spreadsheet program opens it, save it from there as .xlsx", path, backslashed)
	case main == "" && types == "":
		return fmt.Errorf("%s: is a zip archive but not an Excel workbook (it has no [Content_Types].xml, and no workbook part: neither one its relationships name nor xl/workbook.xml); if a spreadsheet program opens it, save it from there as .xlsx", path)
	case main == "":
		return fmt.Errorf("%s: is a zip archive but not an Excel workbook (it has no workbook part: neither one its relationships, _rels/.rels, name nor xl/workbook.xml); if a spreadsheet program opens it, save it from there as .xlsx", path)
	}
	return fmt.Errorf("%s: is a zip archive but not an Excel workbook (it has no [Content_Types].xml, which every xlsx package has); if a spreadsheet program opens it, save it from there as .xlsx", path)
}

// sniffMain says what a package is when its main part is not a workbook's,
// by the content type the package declares for it.
func sniffMain(path, main string, contentTypes []byte) error {
	var t types
	if xml.Unmarshal(contentTypes, &t) != nil {
		return nil // read as a workbook, which says what is wrong if it is not one
	}
	for _, o := range t.Overrides {
		if !strings.EqualFold(strings.TrimPrefix(o.PartName, "/"), main) {
			continue
		}
		switch {
		case strings.Contains(o.ContentType, "wordprocessingml"):
			return fmt.Errorf("%s: is a Word document (.docx), not a workbook", path)
		case strings.Contains(o.ContentType, "presentationml"):
			return fmt.Errorf("%s: is a PowerPoint presentation (.pptx), not a workbook", path)
		}
	}
	return nil
}

// entryFold is the name of the entry spelled name in any case, or "".
func entryFold(files map[string]*zip.File, name string) string {
	if files[name] != nil {
		return name
	}
	for _, n := range sortedNames(files) {
		if strings.EqualFold(n, name) {
			return n
		}
	}
	return ""
}

// smallPart is a workbook-wide part as UTF-8 text, or nil when it is
// missing, larger than MaxWorkbookPart or cannot be read.
func smallPart(f *zip.File) []byte {
	if f == nil || f.UncompressedSize64 > MaxWorkbookPart {
		return nil
	}
	rc, err := f.Open()
	if err != nil {
		return nil
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, MaxWorkbookPart+1))
	if err != nil || len(b) > MaxWorkbookPart {
		return nil
	}
	if b, err = asUTF8(b); err != nil {
		return nil
	}
	return b
}

func utf16(s string) []byte {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r), 0)
	}
	return b
}

// Handle is an excelize file whose temporary files (excelize spools parts
// larger than MaxPartInMemory to disk) live in a folder of their own, which
// Close removes whole, whatever excelize itself left there.
type Handle struct {
	*excelize.File
	// Data is the package the handle was opened on: for a read view, the
	// parts it holds, stored.
	Data []byte
	tmp  string // "" when no folder of its own could be made
}

// Close closes the file and removes its temporary folder.
func (h *Handle) Close() error {
	err := h.File.Close()
	if h.tmp != "" {
		if rmErr := os.RemoveAll(h.tmp); err == nil {
			err = rmErr
		}
	}
	return err
}

// Open gives an excelize handle on data; raw is for a handle that only
// reads, and reads cells as stored. excelize panics on some malformed
// files; that becomes an error here, never a crash. On every failure the
// temporary files excelize made are removed: it returns no file to close
// when reading the package fails, and spools large parts before that.
func Open(path string, data []byte, raw bool) (h *Handle, err error) {
	spool := int64(MaxPartInMemory)
	if raw { // a handle that only reads
		spool = maxReadInMemory
	}
	var tmp string
	if !raw || spoolsOnOpen(data, spool) {
		var mkErr error
		if tmp, mkErr = os.MkdirTemp("", "planner-"); mkErr != nil {
			tmp = "" // excelize then uses the system's temporary folder
		}
	}
	defer func() {
		if r := recover(); r != nil {
			h, err = nil, fmt.Errorf("%s: cannot be read as a workbook (%v); it may be damaged: open it in Excel or LibreOffice and save it again", path, r)
		}
		if h == nil && tmp != "" {
			_ = os.RemoveAll(tmp)
		}
	}()
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{
		RawCellValue:      raw,
		UnzipSizeLimit:    maxUnzippedBytes,
		UnzipXMLSizeLimit: spool,
		TmpDir:            tmp,
	})
	if err != nil {
		if f != nil {
			_ = f.Close()
		}
		return nil, fmt.Errorf("%s: cannot be read as a workbook (%v); it may be damaged: open it in Excel or LibreOffice and save it again", path, err)
	}
	return &Handle{File: f, Data: data, tmp: tmp}, nil
}

// spoolsOnOpen reports whether excelize, opening data, writes a part to a
// temporary file: one whose declared size is past spool, as excelize
// decides it. A handle that only reads writes nothing else, and needs no
// folder of its own otherwise (making and removing one took as long as
// reading a small workbook's inputs).
func spoolsOnOpen(data []byte, spool int64) bool {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return true
	}
	for _, f := range zr.File {
		if f.UncompressedSize64 > uint64(spool) {
			return true
		}
	}
	return false
}

// head is the first n bytes of a part, or fewer. It inflates only the
// first compressed bytes of a deflated part, which hold the n bytes of any
// part planner reads the head of: inflating a part to its first window
// (32 KB) only to look at four bytes cost more than the rest of the check.
func head(f *zip.File, n int) []byte {
	if f.Method == zip.Deflate {
		if raw, err := f.OpenRaw(); err == nil {
			b := make([]byte, n)
			in := io.LimitReader(raw, int64(n)+headSlack)
			fr := inflaters.Get().(io.ReadCloser)
			if fr.(flate.Resetter).Reset(in, nil) == nil {
				got, _ := io.ReadFull(fr, b)
				if got == n || uint64(got) == f.UncompressedSize64 {
					inflaters.Put(fr)
					return b[:got]
				}
			}
			inflaters.Put(fr)
		}
	}
	rc, err := f.Open()
	if err != nil {
		return nil
	}
	defer rc.Close()
	b := make([]byte, n)
	got, _ := io.ReadFull(rc, b)
	return b[:got]
}

// headSlack is how many compressed bytes past n head reads at first: room
// for a block's Huffman tables. A part whose first n bytes need more is
// read the long way.
const headSlack = 320

// inflaters are head's decompressors, kept: each is tens of kilobytes to
// set up.
var inflaters = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}
