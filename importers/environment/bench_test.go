package environment

import (
	"os"
	"testing"
)

// BenchmarkParse reads the largest real dump (the 2×L40S collect_env, 10 KB); BenchmarkDetect is
// the sniff every attached file pays.
func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("../../testdata/fixtures/turn3-env/02_vllm-collect-env_v0.16.0_2xL40S.txt")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := Parse("x", data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDetect(b *testing.B) {
	data, err := os.ReadFile("../serverlog/testdata/vllm-0.10.2-pp-mixed.log")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(min(len(data), 64<<10)))
	for b.Loop() {
		Detect(data)
	}
}
