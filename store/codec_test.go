package store

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// floatsText is what a detailed result mostly holds: gaps printed with 17 digits.
func floatsText(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	var b []byte
	for len(b) < n {
		b = strconv.AppendFloat(b, 0.01+r.Float64()/50, 'g', -1, 64)
		b = append(b, ", "...)
	}
	return b[:n]
}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestChunkCodecs: each kind of chunk comes back exactly, with the codec that suits it:
// printed floats Huffman-coded, repeating text and small chunks S2's; a Huffman-coded chunk
// keeps a block of one byte or of noise as it is.
func TestChunkCodecs(t *testing.T) {
	logLines := []byte(strings.Repeat("INFO 03-25 22:31:57 metrics.py:351] Avg prompt throughput: 0.0 tokens/s\n", 60000))
	mixed := append(append(floatsText(3*huffBlock+17, 1), bytes.Repeat([]byte{'x'}, 2*huffBlock)...), randomBytes(huffBlock+5, 3)...)
	for _, c := range []struct {
		name  string
		data  []byte
		codec string
	}{
		{"one byte", []byte("{"), codecS2},
		{"small", floatsText(huffBlock-1, 4), codecS2},
		{"floats", floatsText(ChunkSize, 5), codecHuff},
		{"floats, one block", floatsText(huffBlock, 6), codecHuff},
		{"floats, then one byte repeated, then noise", mixed, codecHuff},
		{"log", logLines[:ChunkSize], codecS2},
		{"noise", randomBytes(5*huffBlock, 7), codecS2},
	} {
		t.Run(c.name, func(t *testing.T) {
			var enc chunkEncoder
			buf := make([]byte, maxEncodedLen(len(c.data)))
			codec, block := enc.encode(buf, c.data)
			if codec != c.codec {
				t.Errorf("codec %s, want %s", codec, c.codec)
			}
			if len(block) > maxEncodedLen(len(c.data)) {
				t.Errorf("%d bytes encoded, more than maxEncodedLen %d", len(block), maxEncodedLen(len(c.data)))
			}
			if n, err := decodedLen(codec, block); err != nil || n != len(c.data) {
				t.Errorf("decodedLen = %d, %v; want %d", n, err, len(c.data))
			}
			prefix := []byte("before")
			got, err := decodeChunk(codec, append([]byte(nil), prefix...), block)
			if err != nil || !bytes.Equal(got, append(prefix, c.data...)) {
				t.Fatalf("decoded %d bytes (%v), not the %d given", len(got)-len(prefix), err, len(c.data))
			}
			if codec == codecHuff && len(block) >= len(c.data)*6/10 {
				t.Errorf("Huffman coding kept %d of %d bytes", len(block), len(c.data))
			}
		})
	}
}

// TestDamagedChunk: a Huffman-coded chunk cut short or with a byte changed is refused or,
// when the change still decodes, gives back no more bytes than it says it holds; never a panic.
func TestDamagedChunk(t *testing.T) {
	data := append(floatsText(2*huffBlock, 8), bytes.Repeat([]byte{'0'}, huffBlock)...)
	var enc chunkEncoder
	codec, block := enc.encode(make([]byte, maxEncodedLen(len(data))), data)
	if codec != codecHuff {
		t.Fatalf("codec %s", codec)
	}
	for _, n := range []int{0, 1, 2, 5, len(block) / 2, len(block) - 1} {
		if _, err := decodeChunk(codec, nil, block[:n]); err == nil {
			t.Errorf("a chunk cut to %d of %d bytes decoded", n, len(block))
		}
	}
	r := rand.New(rand.NewPCG(9, 9))
	for range 2000 {
		bad := append([]byte(nil), block...)
		bad[r.IntN(len(bad))] ^= byte(1 + r.IntN(255))
		if got, err := decodeChunk(codec, nil, bad); err == nil && len(got) != len(data) {
			t.Fatalf("a damaged chunk decoded to %d bytes, not %d", len(got), len(data))
		}
	}
	if _, err := decodedLen("zz", block); err == nil {
		t.Error("an unknown codec has a length")
	}
}

// FuzzDecodeChunk: no input makes the Huffman decoder panic or return more than it claims.
func FuzzDecodeChunk(f *testing.F) {
	var enc chunkEncoder
	data := floatsText(huffBlock+100, 10)
	_, block := enc.encode(make([]byte, maxEncodedLen(len(data))), data)
	f.Add(block)
	f.Add([]byte{0x80, 0x80, 0x04, 0x01, 'a'})
	f.Fuzz(func(t *testing.T, blob []byte) {
		n, err := decodedLen(codecHuff, blob)
		got, derr := decodeChunk(codecHuff, nil, blob)
		if derr == nil && (err != nil || len(got) != n) {
			t.Fatalf("decoded %d bytes of a chunk of %d (%v)", len(got), n, err)
		}
	})
}
