package ooxml

import "encoding/binary"

// A zip's end record, the last thing in the file, may carry a comment of
// up to 65,535 bytes. Readers of xlsx ignore it, and LibreOffice and
// openpyxl save without it; planner's merge never copies the user's (it writes a new archive),
// so the comment of a package planner wrote is planner's to set.

// endRecordSize is the end record's fixed part; its last two bytes are the
// comment's length.
const endRecordSize = 22

// endRecord is where data's end record starts: the last "PK\x05\x06" whose
// comment ends the file; -1 when data has none.
func endRecord(data []byte) int {
	for i := len(data) - endRecordSize; i >= 0 && i >= len(data)-endRecordSize-0xffff; i-- {
		if data[i] != 'P' || data[i+1] != 'K' || data[i+2] != 5 || data[i+3] != 6 {
			continue
		}
		if n := int(binary.LittleEndian.Uint16(data[i+20:])); i+endRecordSize+n == len(data) {
			return i
		}
	}
	return -1
}

// Comment is the zip comment of data; "" when it has none or is no zip.
func Comment(data []byte) string {
	at := endRecord(data)
	if at < 0 {
		return ""
	}
	return string(data[at+endRecordSize:])
}

// Uncommented is what of data a comment can vouch for: every byte before
// the comment's length, so that setting the comment changes none of them.
// nil when data is no zip.
func Uncommented(data []byte) []byte {
	at := endRecord(data)
	if at < 0 {
		return nil
	}
	return data[:at+endRecordSize-2]
}

// WithComment is data with its zip comment replaced by comment, every
// other byte as it was; data itself when it is no zip or comment does not
// fit.
func WithComment(data []byte, comment string) []byte {
	at := endRecord(data)
	if at < 0 || len(comment) > 0xffff {
		return data
	}
	out := make([]byte, 0, at+endRecordSize+len(comment))
	out = append(out, data[:at+endRecordSize-2]...)
	out = binary.LittleEndian.AppendUint16(out, uint16(len(comment)))
	return append(out, comment...)
}

// Every entry of the zip's central directory may carry a comment of its
// own. Readers of xlsx ignore those too, and OPC allows them (an entry's
// name, extra field and comment together within 65,535 bytes); LibreOffice
// reads an entry's comment length as a signed number and refuses a
// package with a comment past 32,767 bytes, so none is longer than
// MaxEntryComment.

// MaxEntryComment is the longest entry comment planner writes.
const MaxEntryComment = 32_000

// Central directory headers: their signature and fixed part, and where in
// it the lengths of the name, the extra field and the comment lie.
const (
	centralSignature = "PK\x01\x02"
	centralSize      = 46
	nameLengthAt     = 28
	extraLengthAt    = 30
	commentLengthAt  = 32
)

// centralEntry is one header of the central directory: where it lies in
// the zip, its name and its comment.
type centralEntry struct {
	start, commentAt, end int
	name                  string
}

// centralDirectory is data's central directory, entry by entry, and where
// it starts; ok is false when data is no zip planner can edit so (a zip64
// archive among them, whose end record holds no offsets).
func centralDirectory(data []byte) (entries []centralEntry, start int, ok bool) {
	at := endRecord(data)
	if at < 0 {
		return nil, 0, false
	}
	count16, size32, start32 := binary.LittleEndian.Uint16(data[at+10:]), binary.LittleEndian.Uint32(data[at+12:]), binary.LittleEndian.Uint32(data[at+16:])
	if count16 == 0xffff || size32 == 0xffffffff || start32 == 0xffffffff || uint64(start32)+uint64(size32) != uint64(at) {
		return nil, 0, false
	}
	count, start := int(count16), int(start32)
	for p := start; p < at; {
		if p+centralSize > at || string(data[p:p+4]) != centralSignature {
			return nil, 0, false
		}
		n := int(binary.LittleEndian.Uint16(data[p+nameLengthAt:]))
		m := int(binary.LittleEndian.Uint16(data[p+extraLengthAt:]))
		k := int(binary.LittleEndian.Uint16(data[p+commentLengthAt:]))
		e := centralEntry{start: p, commentAt: p + centralSize + n + m, end: p + centralSize + n + m + k}
		if e.end > at {
			return nil, 0, false
		}
		e.name = string(data[p+centralSize : p+centralSize+n])
		entries = append(entries, e)
		p = e.end
	}
	return entries, start, len(entries) == count
}

// EntryComments is the comment of each of data's entries that has one, by
// the entry's name; none when data is no zip planner can read so.
func EntryComments(data []byte) map[string]string {
	entries, _, _ := centralDirectory(data)
	out := map[string]string{}
	for _, e := range entries {
		if e.commentAt < e.end {
			out[e.name] = string(data[e.commentAt:e.end])
		}
	}
	return out
}

// WithEntryComments is data with the comments of the entries named
// replaced, "" removing one, every part's bytes as they were; ok is false,
// and data is returned as it is, when data is no zip planner can edit so,
// an entry named is not in it, or a comment is longer than
// MaxEntryComment.
func WithEntryComments(data []byte, comments map[string]string) (out []byte, ok bool) {
	entries, start, ok := centralDirectory(data)
	if !ok {
		return data, false
	}
	found := map[string]bool{}
	for _, e := range entries {
		if c, named := comments[e.name]; named {
			found[e.name] = true
			if len(c) > MaxEntryComment {
				return data, false
			}
		}
	}
	if len(found) != len(comments) {
		return data, false
	}
	at := endRecord(data)
	out = make([]byte, 0, len(data)+totalLength(comments))
	out = append(out, data[:start]...)
	for _, e := range entries {
		c, named := comments[e.name]
		if !named {
			out = append(out, data[e.start:e.end]...)
			continue
		}
		header := len(out)
		out = append(out, data[e.start:e.commentAt]...)
		binary.LittleEndian.PutUint16(out[header+commentLengthAt:], uint16(len(c)))
		out = append(out, c...)
	}
	end := len(out)
	out = append(out, data[at:]...)
	binary.LittleEndian.PutUint32(out[end+12:], uint32(end-start))
	return out, true
}

// totalLength is the length of every comment together.
func totalLength(comments map[string]string) int {
	n := 0
	for _, c := range comments {
		n += len(c)
	}
	return n
}
