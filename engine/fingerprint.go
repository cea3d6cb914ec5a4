package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// Fingerprint is a short hash of the model's Facts that decide numbers
// (not sources and notes) and of anything else the caller adds (such as
// command-line overrides): equal fingerprints mean equal results.
func (m Model) Fingerprint(extra ...string) string {
	var lines []string
	for _, f := range m.Facts() {
		if f.Kind != KindSource {
			lines = append(lines, f.String())
		}
	}
	h := sha256.New()
	for _, l := range append(lines, extra...) {
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
