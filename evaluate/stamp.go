package evaluate

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"planner/montecarlo"
	"planner/workbooks"
)

// stampKey is what, besides the workbook's own bytes, decides what eval
// writes into it: the build of planner and the choices of the run. The
// workbook's proof of being up to date is a digest under it
// (workbooks.Stamp). It is "" for a build that cannot say which it is and
// for a what-if's overrides, whose sheets are never the workbook's own
// results: such a run writes no proof.
func (r *run) stampKey() string {
	if r.opts.Build == "" || len(r.opts.Sets) > 0 {
		return ""
	}
	return fmt.Sprintf("planner %s\x00%s\x00samples %d\x00seed %d\x00targets %q", r.opts.Version, r.opts.Build,
		r.opts.Samples, r.opts.Seed, r.opts.Targets)
}

// ThisBuild is the build of the running planner as its build information
// names it: the module's version, which a release carries and go build
// in a git checkout gives as the commit's pseudo-version. It is "" for a
// build with uncommitted changes ("+dirty"), whose code no version pins,
// and for one built without version control information (go test, go
// build -buildvcs=false): those write no proof and trust none.
func ThisBuild() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return buildOf(bi)
}

// buildOf is the build bi describes, as ThisBuild names it.
func buildOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" || v == "(devel)" || strings.Contains(v, "+dirty") {
		return ""
	}
	return bi.Main.Path + " " + v
}

// stamped is whether the workbook as read proves itself up to date to
// this run: written by this build with these choices and not changed
// since, byte for byte. It is false for --check, which trusts no proof,
// and for a run that writes elsewhere or not at all.
func (r *run) stamped(book *workbooks.Book) bool {
	if r.proven == nil {
		ok := r.writes() && r.target == book.Path && !r.opts.Check && workbooks.Stamped(book.Data(), r.stampKey())
		r.proven = &ok
	}
	return *r.proven
}

// carried is the Monte Carlo results a workbook that proves itself up to
// date carries with the proof (workbooks.Carried): what this run would
// compute of it, so that it need not sample. nil when it carries none
// that fits the run's shape, or none this machine's build computed.
func (r *run) carried(book *workbooks.Book, rep *Report) []*montecarlo.Result {
	if !r.stamped(book) {
		return nil
	}
	body, ok := bytes.CutPrefix(workbooks.Carried(book.Data()), computedBy())
	if !ok {
		return nil
	}
	mcs, ok := decodeResults(body, r.shapeOf(rep))
	if !ok || len(mcs) == 0 {
		return nil
	}
	return mcs
}

// record is what the workbook carries with its proof: the run's Monte
// Carlo results, in the layout the memory keeps (uptodate_record.go), led
// by computedBy; nil when that layout would not give them back to the bit.
func (r *run) record(rep *Report) []byte {
	body := r.encode(rep)
	if body == nil {
		return nil
	}
	return append(computedBy(), body...)
}

// encode is the run's Monte Carlo results in the layout the record and the
// memory keep (uptodate_record.go), encoded once: nil when that layout
// would not give them back to the bit.
func (r *run) encode(rep *Report) []byte {
	if r.encoded == nil {
		body, ok := encodeResults(rep.MonteCarlo, r.shapeOf(rep))
		if !ok {
			body = nil
		}
		r.encoded = &body
	}
	return *r.encoded
}

// computedBy names, as a digest, what besides the build's version decides
// Monte Carlo's figures to the last bit: the compiler, the machine it
// compiled for (Go fuses a multiply and an add on some, and rounds once)
// and how this processor computes the functions sampling and summarising
// call (Go's math.Exp takes a fused multiply-add where the processor has
// one, or leaves it where GODEBUG says so). A workbook stamped on a
// machine that computes otherwise proves its sheets up to date, but its
// record is sampled again here.
var computedBy = sync.OnceValue(func() []byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", runtime.Version(), runtime.GOARCH)
	if bi, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(h, "%s\x00", bi)
	}
	for _, v := range arithmetic() {
		h.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)))
	}
	return h.Sum(nil)[:16]
})

// arithmetic is what this processor makes of the functions whose last bit
// may depend on it, at arguments across their range: a processor that
// rounds one of them otherwise changes some of these.
func arithmetic() []float64 {
	var out []float64
	for i := range 64 {
		x := -20 + 40*float64(i)/63 + 1e-4*float64(i%7)
		out = append(out, math.Exp(x), math.Expm1(x/10), math.Log(math.Abs(x)+0.5), math.Log1p(math.Abs(x)),
			math.Log10(math.Abs(x)+1), math.Pow(math.Abs(x)+0.1, 0.37), math.Erf(x/10), math.Erfinv(x/21),
			math.Sqrt(math.Abs(x)), math.Cbrt(x), math.Sin(x), math.Atan(x))
		lg, _ := math.Lgamma(math.Abs(x) + 0.5)
		out = append(out, lg)
	}
	return out
}
