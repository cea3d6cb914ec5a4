package cols

import (
	"fmt"
	"testing"

	"github.com/xuri/excelize/v2"
)

// BenchmarkWidths sets the widths of a sheet of 100 and of 1,000 columns
// (a sheet with a column per offer) as planner does, by Splice on the
// streamed part and Set on a scratch sheet, and, to compare, as it did,
// one excelize call per column on the stream writer.
func BenchmarkWidths(b *testing.B) {
	for _, n := range []int{100, 1000} {
		widths := make([]float64, n)
		for i := range widths {
			widths[i] = 13
		}
		widths[0] = 42
		part := []byte(`<worksheet><dimension ref="A1"/><sheetData><row r="1"/></sheetData></worksheet>`)
		b.Run(fmt.Sprintf("splice/columns=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Splice(part, widths); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("set/columns=%d", n), func(b *testing.B) {
			for b.Loop() {
				f := excelize.NewFile()
				if err := Set(f, "Sheet1", widths); err != nil {
					b.Fatal(err)
				}
				f.Close()
			}
		})
		b.Run(fmt.Sprintf("excelize/columns=%d", n), func(b *testing.B) {
			for b.Loop() {
				f := excelize.NewFile()
				sw, err := f.NewStreamWriter("Sheet1")
				if err != nil {
					b.Fatal(err)
				}
				for i, w := range widths {
					if err := sw.SetColWidth(i+1, i+1, w); err != nil {
						b.Fatal(err)
					}
				}
				f.Close()
			}
		})
	}
}
