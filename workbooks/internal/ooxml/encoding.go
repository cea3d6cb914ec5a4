package ooxml

import (
	"bytes"
	"errors"

	"golang.org/x/text/encoding/unicode"
)

// Excel Mobile and some libraries store a part's XML as UTF-16, which the
// format allows and excelize cannot read. planner reads such a part as
// UTF-8, its declaration saying so; a part it does not rewrite goes back
// byte for byte as the user stored it (see normal.go).

// utf16XML reports whether a part begins as XML written in UTF-16 (with a
// byte-order mark, or without one): a "<" in either byte order. (Other
// parts begin so too: a data model's begins with a byte-order mark and
// "STREAM".)
func utf16XML(head []byte) bool {
	for _, start := range [][]byte{{0xFF, 0xFE, '<', 0}, {0xFE, 0xFF, 0, '<'}, {'<', 0, '?', 0}, {0, '<', 0, '?'}} {
		if bytes.HasPrefix(head, start) {
			return true
		}
	}
	return false
}

// utf16Form is how a part is stored as UTF-16: its byte order and whether
// it begins with a byte-order mark.
type utf16Form struct {
	order unicode.Endianness
	bom   bool
}

func formOf(part []byte) utf16Form {
	switch {
	case bytes.HasPrefix(part, []byte{0xFF, 0xFE}):
		return utf16Form{unicode.LittleEndian, true}
	case bytes.HasPrefix(part, []byte{0xFE, 0xFF}):
		return utf16Form{unicode.BigEndian, true}
	case bytes.HasPrefix(part, []byte{'<', 0}):
		return utf16Form{unicode.LittleEndian, false}
	}
	return utf16Form{unicode.BigEndian, false}
}

// declaringUTF8 is text with the encoding its XML declaration names
// changed to UTF-8; text itself when it has no such declaration.
func declaringUTF8(text []byte) []byte {
	if !bytes.HasPrefix(text, []byte("<?xml")) || len(text) > 5 && !isSpace(text[5]) {
		return text
	}
	end := bytes.Index(text, []byte("?>"))
	if end < 0 {
		return text
	}
	if a, ok := findAttr(text[:end+2], "encoding"); ok {
		return applySplices(text, []splice{{a.value, a.end, `"UTF-8"`}})
	}
	return text
}

// fromUTF16 is a UTF-16 part as UTF-8, its declaration changed to say so.
// It fails for a part that does not decode to the same text it was: an odd
// byte, or half of a surrogate pair, would otherwise become U+FFFD.
func fromUTF16(part []byte) ([]byte, error) {
	form := formOf(part)
	body := part
	if form.bom {
		body = part[2:]
	}
	text, err := unicode.UTF16(form.order, unicode.IgnoreBOM).NewDecoder().Bytes(body)
	if err != nil {
		return nil, err
	}
	back, err := unicode.UTF16(form.order, unicode.IgnoreBOM).NewEncoder().Bytes(text)
	if err != nil || !bytes.Equal(back, body) {
		return nil, errors.New("it is not whole UTF-16 text")
	}
	return declaringUTF8(text), nil
}

// asUTF8 is a part as UTF-8 text: itself, or decoded from UTF-16.
func asUTF8(part []byte) ([]byte, error) {
	if !utf16XML(part) {
		return part, nil
	}
	return fromUTF16(part)
}
