package ooxml

import (
	"archive/zip"
	"compress/flate"
	"io"
	"sync"
)

// newZipWriter is zip.NewWriter whose deflate compressors come from
// planner's own free list. archive/zip keeps its compressors in a
// sync.Pool, which each garbage collection empties, and an eval writes a
// package several times over a few collections: each new compressor is
// about a megabyte to allocate and zero. The level is archive/zip's own,
// so the bytes are the same.
func newZipWriter(w io.Writer) *zip.Writer {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return &reusedFlate{fw: compressors.get(out)}, nil
	})
	return zw
}

// zipDeflateLevel is the level archive/zip deflates at.
const zipDeflateLevel = 5

// compressors are the deflate writers free for the next part.
var compressors freeFlate

type freeFlate struct {
	mu   sync.Mutex
	free []*flate.Writer
}

func (f *freeFlate) get(out io.Writer) *flate.Writer {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n := len(f.free); n > 0 {
		fw := f.free[n-1]
		f.free = f.free[:n-1]
		fw.Reset(out)
		return fw
	}
	fw, _ := flate.NewWriter(out, zipDeflateLevel) // the level is valid
	return fw
}

// put keeps a few writers: one for each package written at a time.
func (f *freeFlate) put(fw *flate.Writer) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.free) < 4 {
		f.free = append(f.free, fw)
	}
}

// reusedFlate is one part's compressor, given back when the part ends.
type reusedFlate struct{ fw *flate.Writer }

func (r *reusedFlate) Write(p []byte) (int, error) { return r.fw.Write(p) }

func (r *reusedFlate) Close() error {
	err := r.fw.Close()
	compressors.put(r.fw)
	r.fw = nil
	return err
}

// copyBuffers are the buffers entries' compressed bytes are copied through.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// copyCompressed copies r, an entry's compressed bytes, into w.
func copyCompressed(w io.Writer, r io.Reader) error {
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	_, err := io.CopyBuffer(w, r, *buf)
	return err
}
