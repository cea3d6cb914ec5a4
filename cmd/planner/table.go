package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// table lines up columns for a terminal: text columns to the left, number
// columns to the right.
type table struct {
	right []bool // per column: align right
	rows  [][]string
}

// add adds a row. Each cell is made safe for a terminal and kept on one
// line here, so that columns line up by the text a terminal shows.
func (t *table) add(cells ...string) {
	row := make([]string, len(cells))
	for i, c := range cells {
		row[i] = oneLine(c)
	}
	t.rows = append(t.rows, row)
}

func (t *table) write(w io.Writer) {
	widths := map[int]int{}
	for _, r := range t.rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		b.WriteString(" ")
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			b.WriteString(" ")
			if i < len(t.right) && t.right[i] {
				b.WriteString(pad + c)
			} else if i < len(r)-1 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(c)
			}
			b.WriteString(" ")
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// indented is text for a command's help: wrapped at 86 columns, each line
// indented by two spaces.
func indented(text string) string {
	var lines []string
	line := " "
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > 86 {
			lines, line = append(lines, line), " "
		}
		line += " " + w
	}
	return strings.Join(append(lines, line), "\n")
}
