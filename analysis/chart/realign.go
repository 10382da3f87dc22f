package chart

import (
	"encoding/binary"
	"errors"
)

// realigned rewrites the first font of a TrueType/OpenType file or collection with every
// table at a 4-byte-aligned offset, as golang.org/x/image/font/sfnt requires; the WenQuanYi
// fonts Debian ships (fonts-wqy-microhei, -zenhei) have unaligned tables and are otherwise
// refused with "invalid table offset".
func realigned(data []byte) ([]byte, error) {
	bad := errors.New("not a TrueType/OpenType font")
	start := 0
	if len(data) >= 16 && string(data[:4]) == "ttcf" {
		start = int(binary.BigEndian.Uint32(data[12:16]))
	}
	if start+12 > len(data) {
		return nil, bad
	}
	n := int(binary.BigEndian.Uint16(data[start+4:]))
	dir := start + 12
	if dir+16*n > len(data) {
		return nil, bad
	}
	out := make([]byte, 12+16*n)
	copy(out, data[start:start+12])
	for i := range n {
		rec := data[dir+16*i : dir+16*i+16]
		off, length := int(binary.BigEndian.Uint32(rec[8:])), int(binary.BigEndian.Uint32(rec[12:]))
		if off < 0 || length < 0 || off+length > len(data) {
			return nil, bad
		}
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
		r := out[12+16*i : 12+16*i+16]
		copy(r, rec)
		binary.BigEndian.PutUint32(r[8:], uint32(len(out)))
		out = append(out, data[off:off+length]...)
	}
	return out, nil
}
