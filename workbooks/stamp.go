package workbooks

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"

	"planner/workbooks/internal/ooxml"
)

// A workbook planner wrote carries the proof that it is up to date in its
// zip comment: a digest of every other byte of the file together with the
// choices that decided them (planner's build, the samples, the seed, the
// targets: the caller's key), and what the caller asks it to carry (the
// Monte Carlo results the sheets were written from) when that fits in the
// comment. A later eval with the same key that finds the digest still true
// knows, from the file alone, that evaluating it again would write these
// same bytes (eval(eval(x)) = eval(x)), and skips writing, and sampling
// when the results are carried. Any change to the file by any program
// breaks the digest, and LibreOffice and openpyxl save without the comment.
// The digest guards against every change made by accident, not against
// someone who forges it on purpose: --check never trusts it.

// stampPrefix opens planner's comment; another layout is another prefix.
const stampPrefix = "planner up to date, sha256 "

// Stamp is data with the proof under key in its comment, carrying carried
// when the comment has room for it; data as it is when key is "", a build
// that vouches for nothing.
func Stamp(data []byte, key string, carried []byte) []byte {
	if key == "" {
		return data
	}
	text := base64.StdEncoding.EncodeToString(carried)
	if len(stampPrefix)+sha256.Size*2+1+len(text) > maxComment {
		text = ""
	}
	comment := stampPrefix + stampDigest(data, key, text)
	if text != "" {
		comment += "\n" + text
	}
	return ooxml.WithComment(data, comment)
}

// maxComment is the most a zip comment holds.
const maxComment = 0xffff

// Stamped reports whether data carries the proof under key, true of every
// byte of it, and gives what the proof carries (nil for nothing).
func Stamped(data []byte, key string) (carried []byte, ok bool) {
	rest, ok := strings.CutPrefix(ooxml.Comment(data), stampPrefix)
	if !ok || key == "" {
		return nil, false
	}
	digest, text, _ := strings.Cut(rest, "\n")
	if digest != stampDigest(data, key, text) {
		return nil, false
	}
	if carried, err := base64.StdEncoding.Strict().DecodeString(text); err == nil && len(carried) > 0 {
		return carried, true
	}
	return nil, true
}

// stampDigest is the digest of key, of what the comment carries (text) and
// of every byte of data the comment does not hold.
func stampDigest(data []byte, key, text string) string {
	h := sha256.New()
	h.Write([]byte(key))
	h.Write([]byte{0})
	if text != "" {
		// A proof that carries nothing digests as it always has.
		h.Write([]byte(text))
		h.Write([]byte{0})
	}
	h.Write(ooxml.Uncommented(data))
	return hex.EncodeToString(h.Sum(nil))
}
