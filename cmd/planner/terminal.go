package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Everything planner prints goes through a safeWriter (run wraps standard
// output and standard error in one), so that no printer can forget: text
// from a workbook, or from a file name, reaches a terminal with every
// character that a terminal acts on, or that hides or reorders what is
// shown, written as an escape instead. planner show runs as git's text
// conversion on files from pull requests; a cell holding ESC ] 52 must not
// write the reviewer's clipboard.

// safeWriter escapes what terminalSafe escapes. A UTF-8 sequence cut
// between two writes is held until the next one, or Flush.
type safeWriter struct {
	w       io.Writer
	pending []byte
}

func newSafeWriter(w io.Writer) *safeWriter { return &safeWriter{w: w} }

func (s *safeWriter) Write(p []byte) (int, error) {
	buf := append(s.pending, p...)
	s.pending = nil
	// Hold back an incomplete last sequence (at most 3 bytes).
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-3; i-- {
		if utf8.RuneStart(buf[i]) {
			if !utf8.FullRune(buf[i:]) {
				s.pending = append([]byte(nil), buf[i:]...)
				buf = buf[:i]
			}
			break
		}
	}
	if _, err := io.WriteString(s.w, terminalSafe(string(buf))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a sequence the last write left incomplete, escaped.
func (s *safeWriter) Flush() error {
	if len(s.pending) == 0 {
		return nil
	}
	_, err := io.WriteString(s.w, terminalSafe(string(s.pending)))
	s.pending = nil
	return err
}

// terminalSafe is s with every character a terminal would act on, other
// than the line breaks and tabs of planner's layout, written as an escape:
// C0 controls as \x1b, DEL, C1 controls and invisible formatting characters
// (bidi overrides and isolates, zero-width characters, line and paragraph
// separators) as \u202e, bytes that are not UTF-8 as \xff. The \u escapes
// are JSON's too: a JSON document stays valid and means the same.
func terminalSafe(s string) string {
	var b strings.Builder
	done := 0 // s[:done] is in b or needs no escape
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch {
		case r == utf8.RuneError && size == 1:
			esc = fmt.Sprintf(`\x%02x`, s[i])
		case !unsafeRune(r):
			i += size
			continue
		case r < 0x20:
			esc = fmt.Sprintf(`\x%02x`, r)
		default:
			esc = fmt.Sprintf(`\u%04x`, r)
		}
		b.WriteString(s[done:i])
		b.WriteString(esc)
		i += size
		done = i
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// oneLine is terminalSafe for text that must stay on its line: a table
// cell, a fact. Line breaks and tabs in it are escaped too.
func oneLine(s string) string {
	return terminalSafe(lineEscapes.Replace(s))
}

// lineEscapes escapes line breaks and tabs; made once, as a replacer
// builds its tables on first use, and a report of many formulas has
// thousands of cells.
var lineEscapes = strings.NewReplacer("\n", `\n`, "\t", `\t`)

func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20, r >= 0x7f && r < 0xa0: // C0, DEL, C1
		return true
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
		return true
	case r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0: // Hangul fillers: letters that show nothing
		return true
	}
	return false
}
