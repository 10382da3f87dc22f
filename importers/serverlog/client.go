package serverlog

import (
	"strings"

	"benchlens/model"
)

// A lab's folder often keeps the benchmark client's console beside its result
// (vllm bench serve ... | tee bench-short-rate1.log). The client imports vLLM, so its console
// opens with vLLM's own log records (the client host's platform lines, "Triton not installed",
// the quantization registry) and sniffs as a server log; but nothing in it is the server's:
// no version line, engine config, backend selection or start-up. Read as a server log it gave
// the era's default backend as the run's target ("asked FLASH_ATTN" on TPU runs) and a client
// exception ("Server disconnected") as the server failing.

// isClientArgs reports whether a message is a benchmark client's argument dump: the
// argparse Namespace vllm bench serve prints (subparser='bench', bench_type='serve'), or the
// one benchmark_serving.py and sglang.bench_serving print (backend=..., dataset_name=...). A
// vLLM server's own Namespace line reads "args: Namespace(" and is not one.
func isClientArgs(m string) bool {
	if !strings.HasPrefix(m, "Namespace(") {
		return false
	}
	return strings.Contains(m, "bench_type='serve'") ||
		strings.HasPrefix(m, "Namespace(backend=") && strings.Contains(m, "dataset_name=")
}

// serverSpoke reports whether a server wrote any of the log: its version, engine config,
// arguments, a backend selection, or its start-up. A file holding both consoles is a server log.
func (p *parser) serverSpoke() bool {
	return p.srvVersion != "" || p.sglVersion != "" || p.engineInit || p.argsLine != nil || p.sglArgsLine != nil ||
		len(p.order) > 0 || p.started
}

// clientConsole is the evidence of a benchmark client's console: which engine's client, its
// argument line, and nothing of the server.
func (p *parser) clientConsole() *model.LogEvidence {
	ev := &model.LogEvidence{Client: p.client, Status: model.BackendUnknown}
	switch {
	case p.sawSGL || strings.Contains(p.client.Text, "backend='sglang"):
		ev.Engine = "sglang"
	case p.vllmLines > 0 || strings.Contains(p.client.Text, "bench_type='serve'") || strings.Contains(p.client.Text, "backend='vllm"):
		ev.Engine = "vllm"
	}
	return ev
}
