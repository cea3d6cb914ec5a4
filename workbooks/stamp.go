package workbooks

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"planner/workbooks/internal/ooxml"
)

// A workbook planner wrote carries the proof that it is up to date in its
// zip comment: a digest of every other byte of the file together with the
// choices that decided them (planner's build, the samples, the seed, the
// targets: the caller's key). A later eval with the same key that finds
// the digest still true knows, from the file alone, that evaluating it
// again would write these same bytes (eval(eval(x)) = eval(x)), and skips
// writing. Any change to the file by any program breaks the digest, and
// LibreOffice and openpyxl save without the comment. The digest
// guards against every change made by accident, not against someone who
// forges it on purpose: --check never trusts it. It is the digest alone,
// 91 bytes: LibreOffice refuses to load a workbook whose zip comment runs
// to a few hundred bytes (400 loads, 700 does not).

// stampPrefix opens planner's comment; another layout is another prefix.
const stampPrefix = "planner up to date, sha256 "

// Stamp is data with the proof under key in its comment; data as it is
// when key is "", a build that vouches for nothing.
func Stamp(data []byte, key string) []byte {
	if key == "" {
		return data
	}
	return ooxml.WithComment(data, stampPrefix+stampDigest(data, key))
}

// Stamped reports whether data carries the proof under key, true of every
// byte of it.
func Stamped(data []byte, key string) bool {
	digest, ok := strings.CutPrefix(ooxml.Comment(data), stampPrefix)
	return ok && key != "" && digest == stampDigest(data, key)
}

// stampDigest is the digest of key and of every byte of data the comment
// does not hold.
func stampDigest(data []byte, key string) string {
	h := sha256.New()
	h.Write([]byte(key))
	h.Write([]byte{0})
	h.Write(ooxml.Uncommented(data))
	return hex.EncodeToString(h.Sum(nil))
}
