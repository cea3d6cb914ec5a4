package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Lines describes the model one fact per line, in model order: every input
// with its unit and range, every formula, every offer. It is what the
// results depend on, and nothing else (not where a row sits in its sheet).
func (m Model) Lines() []string {
	var out []string
	for _, in := range m.Inputs {
		line := "input " + in.Name + " = " + in.Value.String()
		if in.Unit != "" {
			line += " " + in.Unit
		}
		if in.HasRange {
			line += fmt.Sprintf(" [%s..%s]", num(in.Low), num(in.High))
		}
		out = append(out, line)
	}
	for _, f := range m.Formulas {
		out = append(out, fmt.Sprintf("formula %s = %s", f.Name, f.Source))
	}
	for _, o := range m.Offers {
		out = append(out, fmt.Sprintf("offer %s | %s | %s | %s", o.Provider, o.Name, o.GPU, num(o.Price)))
	}
	return out
}

// Fingerprint is a short hash of the model's Lines and of anything else the
// caller adds (such as command-line overrides): equal fingerprints mean
// equal results.
func (m Model) Fingerprint(extra ...string) string {
	h := sha256.New()
	for _, l := range append(m.Lines(), extra...) {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// String prints a value as a workbook would hold it.
func (v Value) String() string {
	if v.IsText {
		return strconv.Quote(v.Text)
	}
	return num(v.Num)
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Slug turns a label into a name fragment: "RunPod H100 SXM, Community" ->
// "runpod_h100_sxm_community".
func Slug(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			under = false
		} else {
			under = true
		}
	}
	return b.String()
}
