package serverlog

import (
	"bytes"
	"fmt"
	"os"
	"testing"
)

// synthetic builds a ~size-byte log: a real startup (the baseline demo) followed by access and
// metrics lines, as a long benchmark run leaves behind.
func synthetic(tb testing.TB, size int) []byte {
	head, err := os.ReadFile("../../demo/samples/fallback/run-1/server.log")
	if err != nil {
		tb.Fatal(err)
	}
	var b bytes.Buffer
	b.Grow(size + 4096)
	b.Write(head)
	for i := 0; b.Len() < size; i++ {
		if i%50 == 0 {
			fmt.Fprintf(&b, "(APIServer pid=30544) INFO 01-14 10:%02d:%02d [loggers.py:127] Engine 000: Avg prompt throughput: 19544.4 tokens/s, Avg generation throughput: 1200.1 tokens/s, Running: 16 reqs, Waiting: 0 reqs, GPU KV cache usage: 4.1%%, Prefix cache hit rate: 0.0%%\n", i/60%60, i%60)
			continue
		}
		fmt.Fprintf(&b, "(APIServer pid=30544) INFO:     127.0.0.1:%d - \"POST /v1/completions HTTP/1.1\" 200 OK\n", 40000+i%20000)
	}
	return b.Bytes()
}

func BenchmarkParse(b *testing.B) {
	data := synthetic(b, 20<<20)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ev, err := Parse("bench.log", data)
		if err != nil || ev.Status != "fallback" {
			b.Fatalf("%v %+v", err, ev)
		}
	}
}

// TestLargeLog keeps the 100 MB promise honest at a smaller size: the startup evidence survives
// a long tail of access lines.
func TestLargeLog(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	data := synthetic(t, 8<<20)
	ev, err := Parse("big.log", data)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Resolved != "FLASH_ATTN" || ev.TargetBackend != "FLASHINFER" || ev.Status != "fallback" {
		t.Errorf("big log: %s → %s %s", ev.TargetBackend, ev.Resolved, ev.Status)
	}
}
