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
