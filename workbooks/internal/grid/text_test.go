package grid

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/ooxml"
)

// A sentence of a thousand names, merged across three columns of 10 and
// 20: the row stops at the tallest a spreadsheet allows, 409 points (27
// lines of 15), and the sentence is cut at a word, with an ellipsis, to
// what those lines show; the workbook writes.
func TestLongSentenceFitsItsRow(t *testing.T) {
	var names []string
	for i := range 1000 {
		names = append(names, "deployment number "+strings.Repeat("x", i%30))
	}
	long := strings.Join(names, ", ")
	g := New("Fleet", 0, 0, 10, 20, 10)
	g.Sentence(1, 1, 3, long, StyleLabel)
	g.Note(2, 2, long)
	_, heights := g.settled()
	width := g.spanWidth(1, 3)
	s, _ := g.at(1, 1).value.(string)
	note, _ := g.at(2, 2).value.(string)
	if heights[1] != 405 || heights[2] != 405 || wrappedLines(s, width) != 27 || wrappedLines(note, 20) > 27 {
		t.Errorf("rows %v and %v points tall, %d and %d lines; want 405 and 27", heights[1], heights[2], wrappedLines(s, width), wrappedLines(note, 20))
	}
	head := strings.TrimSuffix(s, " …")
	if !strings.HasSuffix(s, " …") || !strings.HasPrefix(long, head) || long[len(head)] != ' ' || wrappedLines(long[:len(head)+30], width) <= 27 {
		t.Errorf("the sentence is cut to %q…", s[len(s)-40:])
	}
	f := excelize.NewFile()
	if _, _, err := Write(f, []*Grid{g}); err != nil {
		t.Fatal(err)
	}
	// A sentence that fits is left as it is.
	if got := Fitted("own a and b", 20); got != "own a and b" {
		t.Errorf("Fitted: %q", got)
	}
}

// What the spreadsheet library refuses while planner writes a sheet
// reaches the user in planner's words: which sheet, the limit, and what
// to do; the library's own error stays underneath for the program.
func TestLibraryErrorsInPlannersWords(t *testing.T) {
	g := New("Fleet", 0, 0)
	g.Set(1, excelize.TotalRows+1, Text("one row too many", StyleLabel))
	_, _, err := Write(excelize.NewFile(), []*Grid{g})
	want := "planner could not lay out its Fleet sheet: it would take more than the 1,048,576 rows a sheet holds; nothing was written. " +
		"This is a limit planner should have kept to, not a mistake of yours: please report it with the command you ran and, " +
		"if you can share it, the workbook; planner show prints every result without writing"
	if err == nil || err.Error() != want || !errors.Is(err, excelize.ErrMaxRows) {
		t.Errorf("error %v\nwant %s", err, want)
	}
	if err := ooxml.Unlaid("its Results sheet", errors.New("something else")); !strings.HasPrefix(err.Error(), "planner could not lay out its Results sheet: the spreadsheet library refused it (something else); nothing was written.") {
		t.Errorf("error %v", err)
	}
}

// Letters take their own widths: ten digits are ten digits wide (with the
// five percent to spare), capitals wider than small letters; a line of
// capitals and digits that LibreOffice wraps onto two lines in a column
// of 140 is counted as two, where counting every letter as a fifth
// narrower than a digit said one.
func TestLettersTakeTheirOwnWidths(t *testing.T) {
	if got := textWidth("0123456789"); math.Abs(got-10.5) > 1e-9 {
		t.Errorf("ten digits: %v digits wide, want 10.5", got)
	}
	if textWidth("WMW") <= textWidth("wmw") || textWidth("ili") >= textWidth("000") {
		t.Error("capitals not wider than small letters, or i and l not narrower than digits")
	}
	words := "nothing to compare: $121 a month rented from RunPod RTX 5090, Community; no scenario owns RTX 5090 nodes; add a scenario whose gpu is RTX 5090 to compare renting them"
	if got := wrappedLines(words, 140); got != 2 {
		t.Errorf("%d lines in a column of 140, want 2 as LibreOffice prints it", got)
	}
}

// nextWord splits text into the words strings.Fields gives: white space of
// every kind, runs of it, invalid UTF-8.
func TestNextWordIsFields(t *testing.T) {
	texts := []string{"", " ", "a", "  two  words ", "tab\tnew\nline\r\vform\f", "nbsp\u00a0nel\u0085em\u2003x",
		"bad \xff\xfe bytes", "é ü 漢字  ✓", "\xffword"}
	pieces := []string{"a", "é", " ", "\t", "\u00a0", "\u2003", "\xff", "漢", "\n", "bc"}
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for j := 0; j < i%17; j++ {
			b.WriteString(pieces[(i*7+j*13+j*j)%len(pieces)])
		}
		texts = append(texts, b.String())
	}
	for _, s := range texts {
		var got []string
		for rest := s; ; {
			w, r := nextWord(rest)
			if w == "" {
				break
			}
			got, rest = append(got, w), r
		}
		if want := strings.Fields(s); !slices.Equal(got, want) {
			t.Errorf("%q: words %q, strings.Fields %q", s, got, want)
		}
	}
}
