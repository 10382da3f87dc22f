package jsonx

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"testing"
)

// The inputs are real files from ../../testdata/fixtures: a detailed vLLM result (100
// requests: per-token ITL arrays, generated texts), a Kineto trace (35 MB of events once
// unzipped), and the result's ITLs as one flat float array, the shape that dominates a
// 100 MB result.
const (
	vllmDetailed = "../../testdata/fixtures/results/h100-fp16-vs-fp8/FP16-openai-10.0qps-itkns-1024-otkns-512-concurrency64-Llama-3.1-8B-Instruct-20250325-224256.json"
	kinetoTrace  = "../../testdata/fixtures/traces/hta_trace_diff_control.json.gz"
)

func benchInputs(b *testing.B) map[string][]byte {
	result, err := os.ReadFile(vllmDetailed)
	if err != nil {
		b.Fatal(err)
	}
	gz, err := os.ReadFile(kinetoTrace)
	if err != nil {
		b.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		b.Fatal(err)
	}
	trace, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	v, err := NewDecoder(result).Decode()
	if err != nil {
		b.Fatal(err)
	}
	floats := []byte{'['}
	for _, req := range Object(v)["itls"].([]any) {
		itls, _ := Floats(req)
		for _, f := range itls {
			if len(floats) > 1 {
				floats = append(floats, ", "...)
			}
			floats = strconv.AppendFloat(floats, f, 'g', -1, 64) // Python's repr: shortest round trip
		}
	}
	floats = append(floats, ']')
	return map[string][]byte{"vllm-detailed": result, "kineto-trace": trace, "float-array": floats}
}

// BenchmarkDecode decodes each input with jsonx and with encoding/json into an any, the
// question jsonx must keep answering: is it still worth its code?
func BenchmarkDecode(b *testing.B) {
	inputs := benchInputs(b)
	for _, name := range []string{"vllm-detailed", "kineto-trace", "float-array"} {
		data := inputs[name]
		b.Run(name+"/jsonx", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := NewDecoder(data).Decode(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encoding-json", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var v any
				if err := json.Unmarshal(data, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
