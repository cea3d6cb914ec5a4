package facts

import (
	"crypto/sha256"
	"encoding/hex"

	"planner/domain"
)

// Fingerprint is a short hash of the model's facts that decide numbers
// (not sources and notes) and of anything else the caller adds (such as
// command-line overrides): equal fingerprints mean equal results. It
// hashes the facts' canonical form, which does not follow show's wording.
func Fingerprint(m domain.Model, extra ...string) string {
	var lines []string
	for _, f := range of(m, true) {
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
