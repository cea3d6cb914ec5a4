package grid

import (
	"bufio"
	"bytes"
	"io"
	"sync"

	"github.com/klauspost/compress/s2"
)

// frozen is a grid written for packing whose rows are already XML, held
// compressed until the packing streams them into the zip (see WriteRows):
// a large sheet's cells and formulas take many times the room of their
// compressed text, and letting them go as soon as the sheet is written
// means planner's sheets are never all held as cells at once. What the
// packing asks of the grid besides its rows is kept from before they went.
type frozen struct {
	rows    chunks // the <row> elements, compressed by s2
	used    string
	heights map[int]float64
}

// freeze writes the rows held for packing as their XML, compressed, and
// lets the cells go (see large). s2 compresses and decompresses a sheet's text at
// several hundred MB a second, a few per cent of deflating it once.
func (g *Grid) freeze(heights map[int]float64) error {
	fz := &frozen{used: g.Used(), heights: heights}
	var buf chunks
	z := s2Writers.get()
	z.Reset(&buf)
	bw := bufio.NewWriterSize(z, 64<<10)
	g.writeHeld(bw)
	err := bw.Flush()
	if err == nil {
		err = z.Close()
	}
	z.Reset(io.Discard) // holds no sheet's text while it waits
	s2Writers.put(z)
	if err != nil {
		return err
	}
	fz.rows = buf
	g.measure, g.frozen = nil, fz
	return nil
}

// freezeFrom is how many cells a grid holds before freeze is worth its
// buffers: a sheet of fewer is a few megabytes at most. A test lowers it.
var freezeFrom = 20_000

// large reports whether the grid holds freezeFrom cells or more.
func (g *Grid) large() bool {
	n := 0
	for _, r := range g.rows {
		if n += len(r); n >= freezeFrom {
			return true
		}
	}
	return false
}

// writeFrozen writes a frozen grid's rows, decompressed, into w, once.
func (g *Grid) writeFrozen(w io.Writer) error {
	rows := g.frozen.rows
	g.frozen.rows = nil
	if len(rows) == 0 {
		return nil
	}
	r := s2Readers.get()
	r.Reset(rows.reader())
	_, err := io.Copy(w, r)
	r.Reset(nil)
	s2Readers.put(r)
	return err
}

// chunks are the blocks s2 wrote, each as it came: a buffer grown by
// doubling would allocate twice the compressed rows and hold up to twice
// their room.
type chunks [][]byte

func (c *chunks) Write(p []byte) (int, error) {
	*c = append(*c, bytes.Clone(p))
	return len(p), nil
}

func (c chunks) reader() io.Reader {
	readers := make([]io.Reader, len(c))
	for i, b := range c {
		readers[i] = bytes.NewReader(b)
	}
	return io.MultiReader(readers...)
}

// freeList keeps a few s2 writers or readers for the next sheet: each holds
// a block's buffers, a megabyte or two, which a sync.Pool would drop at
// every collection.
type freeList[T any] struct {
	mu    sync.Mutex
	items []T
	make  func() T
}

func (l *freeList[T]) get() T {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.items)
	if n == 0 {
		return l.make()
	}
	t := l.items[n-1]
	l.items = l.items[:n-1]
	return t
}

func (l *freeList[T]) put(t T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.items) < 2 {
		l.items = append(l.items, t)
	}
}

// blockSize is s2's block: a large sheet's XML compresses to a twelfth in
// blocks of 256 kB (to an eighth in 64 kB, a fourteenth in 1 MB), and the
// small sheets of most workbooks are spared buffers of a megabyte.
const blockSize = 256 << 10

var (
	s2Writers = freeList[*s2.Writer]{make: func() *s2.Writer {
		return s2.NewWriter(io.Discard, s2.WriterConcurrency(1), s2.WriterBlockSize(blockSize))
	}}
	s2Readers = freeList[*s2.Reader]{make: func() *s2.Reader {
		return s2.NewReader(nil, s2.ReaderMaxBlockSize(blockSize), s2.ReaderAllocBlock(blockSize))
	}}
)
