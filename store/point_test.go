package store

import (
	"bytes"
	"math"
	"testing"

	"benchlens/model"
)

// Bytes that are not a packed point are refused, never read past their end, and what
// decodePoint accepts is a point that packs and reads back as itself (a text's length may
// come in a longer varint than encodePoint writes: the same point, other bytes).
func FuzzDecodePoint(f *testing.F) {
	for _, p := range []*model.LoadPoint{
		{MaxConcurrency: 64, RequestRate: model.Num(math.Inf(1)), InputLen: 939, OutputLen: 512, Measured: true,
			InputFrom: model.LengthPerRequest, OutputFrom: model.LengthPerRequest, OutputFixed: "near-constant outputs", Dataset: "random"},
		{MaxConcurrency: model.Unknown, RequestRate: model.Unknown, InputLen: model.Unknown, OutputLen: model.Unknown},
		nil,
	} {
		f.Add(encodePoint(p))
	}
	f.Add([]byte{pointVersion, 1, 0xff})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := decodePoint(b)
		if err != nil {
			return
		}
		if b == nil {
			return
		}
		packed := encodePoint(p)
		q, err := decodePoint(packed)
		if err != nil {
			t.Fatalf("decoded %x as %+v, which packs as %x, refused: %v", b, p, packed, err)
		}
		if again := encodePoint(q); !bytes.Equal(again, packed) {
			t.Fatalf("%+v packs as %x, reads back as %+v, packs as %x", p, packed, q, again)
		}
	})
}
