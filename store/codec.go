package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/klauspost/compress/huff0"
	"github.com/klauspost/compress/s2"
)

// Stored chunks are compressed by one of two codecs, chosen for each chunk, and the chunk's
// row names it:
//
//   - codecS2: S2 (klauspost/compress), LZ77 at several hundred MB/s, which shrinks what
//     repeats (a trace's keys and names, a log's lines) to a tenth;
//   - codecHuff: the chunk in blocks of huffBlock bytes, each Huffman-coded on its own
//     (huff0, as zstd codes literals). A detailed result's millions of floats printed with 17
//     digits hardly repeat: S2 keeps 72 % of them, Huffman coding 46 %, and it is faster too.
//
// A chunk of at least huffBlock bytes is given the codec that does better on its first
// block; a smaller one is S2's. Both give the bytes back exactly.
const (
	codecS2   = "s2"
	codecHuff = "h0"
)

// huffBlock is the most bytes one Huffman-coded block holds (huff0 takes up to 256 KiB).
const huffBlock = 64 << 10

// The kinds of a codecHuff block.
const (
	blockRaw  = 0 // the bytes as they are
	blockRLE  = 1 // one byte repeated
	blockHuff = 2 // huff0's table and four streams (Compress4X)
)

// maxEncodedLen is the most bytes encodeChunk writes for n bytes, with either codec.
func maxEncodedLen(n int) int {
	return max(s2.MaxEncodedLen(n), n+binary.MaxVarintLen64+(n/huffBlock+1)*2*binary.MaxVarintLen32)
}

// chunkEncoder compresses chunks; one per goroutine (it keeps huff0's scratch space).
type chunkEncoder struct {
	huff  huff0.Scratch
	trial []byte // S2's block of a chunk's first huffBlock bytes, to compare
}

// encode compresses data (at most ChunkSize bytes) into buf, which holds maxEncodedLen(len(data))
// bytes, and returns the codec and the block.
func (e *chunkEncoder) encode(buf, data []byte) (string, []byte) {
	if len(data) < huffBlock {
		return codecS2, s2.Encode(buf[:cap(buf)], data)
	}
	out := binary.AppendUvarint(buf[:0], uint64(len(data)))
	out = e.block(out, data[:huffBlock])
	if e.trial == nil {
		e.trial = make([]byte, s2.MaxEncodedLen(huffBlock))
	}
	if len(s2.Encode(e.trial, data[:huffBlock])) <= len(out) {
		return codecS2, s2.Encode(buf[:cap(buf)], data)
	}
	for off := huffBlock; off < len(data); off += huffBlock {
		out = e.block(out, data[off:min(off+huffBlock, len(data))])
	}
	return codecHuff, out
}

// block appends one block of codecHuff: a header (its length and kind), then for a coded block the
// length of what follows.
func (e *chunkEncoder) block(out, data []byte) []byte {
	e.huff.Reuse = huff0.ReusePolicyNone // every block decodes alone
	coded, _, err := huff0.Compress4X(data, &e.huff)
	switch {
	case errors.Is(err, huff0.ErrUseRLE):
		out = binary.AppendUvarint(out, uint64(len(data))<<2|blockRLE)
		return append(out, data[0])
	case err != nil || len(coded) >= len(data):
		out = binary.AppendUvarint(out, uint64(len(data))<<2|blockRaw)
		return append(out, data...)
	}
	out = binary.AppendUvarint(out, uint64(len(data))<<2|blockHuff)
	out = binary.AppendUvarint(out, uint64(len(coded)))
	return append(out, coded...)
}

// errChunk says a stored chunk does not decode: the library's file was damaged.
var errChunk = errors.New("damaged chunk")

// decodedLen is the number of bytes a chunk of codec comp holds, read from the uvarint at
// its start: the first binary.MaxVarintLen64 bytes of a chunk are enough (missingBytes reads
// no more of it).
func decodedLen(comp string, blob []byte) (int, error) {
	switch comp {
	case codecS2:
		return s2.DecodedLen(blob)
	case codecHuff:
		n, k := binary.Uvarint(blob)
		if k <= 0 || n > ChunkSize {
			return 0, errChunk
		}
		return int(n), nil
	}
	return 0, fmt.Errorf("unknown compression %q", comp)
}

// decodeChunk appends the bytes of a chunk of codec comp to dst.
func decodeChunk(comp string, dst, blob []byte) ([]byte, error) {
	n, err := decodedLen(comp, blob)
	if err != nil {
		return dst, err
	}
	start := len(dst)
	dst = slices.Grow(dst, n)
	if comp == codecS2 {
		dec, err := s2.Decode(dst[start:start+n], blob)
		if err != nil {
			return dst[:start], fmt.Errorf("%w: %w", errChunk, err)
		}
		return dst[:start+len(dec)], nil
	}
	_, k := binary.Uvarint(blob)
	blob = blob[k:]
	var sc huff0.Scratch
	out := dst[:start]
	for len(blob) > 0 {
		h, k := binary.Uvarint(blob)
		size := int(h >> 2)
		if k <= 0 || size > huffBlock || len(out)+size > start+n {
			return dst[:start], errChunk
		}
		blob = blob[k:]
		switch h & 3 {
		case blockRaw:
			if len(blob) < size {
				return dst[:start], errChunk
			}
			out = append(out, blob[:size]...)
			blob = blob[size:]
		case blockRLE:
			if len(blob) < 1 {
				return dst[:start], errChunk
			}
			for range size {
				out = append(out, blob[0])
			}
			blob = blob[1:]
		case blockHuff:
			c, k := binary.Uvarint(blob)
			if k <= 0 || c > uint64(len(blob)-k) {
				return dst[:start], errChunk
			}
			coded := blob[k : k+int(c)]
			blob = blob[k+int(c):]
			tab, streams, err := huff0.ReadTable(coded, &sc)
			if err != nil {
				return dst[:start], errChunk
			}
			dec, err := tab.Decoder().Decompress4X(out[len(out):len(out):len(out)+size], streams)
			if err != nil || len(dec) != size {
				return dst[:start], errChunk
			}
			out = out[:len(out)+size]
		default:
			return dst[:start], errChunk
		}
	}
	if len(out) != start+n {
		return dst[:start], errChunk
	}
	return out, nil
}
