package serverlog

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/model"
)

// FuzzParse feeds arbitrary bytes to Sniff and Parse: no panic, and a parsed record is
// consistent (a known status, quoted line numbers inside the file).
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.log")
	files = append(files, "../../demo/samples/baseline/run-1/server.log",
		"../../demo/samples/fallback/run-1/server.log", "../../demo/samples/driver-change/run-1/server.log")
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if len(data) > 16<<10 { // keep seeds small so mutation stays fast
			data = data[:16<<10]
		}
		f.Add(data)
	}
	f.Add([]byte("(EngineCore_DP0 pid=1) INFO 01-01 00:00:00 [cuda.py:1] Using FLASH_ATTN attention backend out of potential backends: ['FLASH_ATTN']."))
	f.Add([]byte("x=1, y=(2, [3, {4: '5'}]) z=<a: (1, 2)>, w='\\'', v=\"…"))
	f.Add([]byte("INFO 04-26 19:51:04 [tpu_platform.py:105] Automatically using fp8_e5m2 for FP8 KV cache on TPU v6e.\n" +
		"Namespace(subparser='bench', bench_type='serve', model='m', request_rate=1.0)\n" +
		"aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected\n")) // a client's console
	statuses := map[model.BackendStatus]bool{model.BackendMatch: true, model.BackendFallback: true, model.BackendSilentOverride: true,
		model.BackendFailed: true, model.BackendUnknown: true}
	f.Fuzz(func(t *testing.T, data []byte) {
		Sniff(data)
		ev, err := Parse("fuzz.log", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.log: line ") {
				t.Fatalf("error without file and line: %v", err)
			}
			return
		}
		if !statuses[ev.Status] {
			t.Fatalf("status %q", ev.Status)
		}
		n := bytes.Count(data, []byte{'\n'}) + 1
		check := func(l model.Line) {
			if l.N < 1 || l.N > n {
				t.Fatalf("line %d outside 1..%d", l.N, n)
			}
		}
		for _, ls := range [][]model.Line{ev.Fallbacks, ev.Overrides, ev.GraphLines} {
			for _, l := range ls {
				check(l)
			}
		}
		if ev.Client != nil {
			check(*ev.Client)
			if ev.TargetBackend != "" || ev.Resolved != "" || len(ev.ServerFailure) > 0 {
				t.Fatalf("a client's console claims the server's: %+v", ev)
			}
		}
		for _, p := range ev.Processes {
			check(p.Line)
			if p.Backend == "" {
				t.Fatalf("empty backend for %q", p.Tag)
			}
		}
		if ev.Resolved != "" && ev.ResolvedHow == "" {
			t.Fatalf("resolved %q without source", ev.Resolved)
		}
		Normalise(string(data[:min(len(data), 64)]))
	})
}
