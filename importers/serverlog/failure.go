package serverlog

import (
	"regexp"
	"strings"

	"benchlens/model"
)

// Engine start failures: a server that never came up must say so (status failed, with the
// lines). vLLM V1 logs "EngineCore failed to start." and "Engine core initialization failed",
// its workers "WorkerProc failed to start." / "Exception in worker …", V0 and load errors a
// Python exception line (RuntimeError, torch.OutOfMemoryError, ValueError …) before the API
// server is up; SGLang "Scheduler hit an exception" and "Received sigquit from a child process".

// startFailures are message prefixes that always mean the server did not start.
var startFailures = []string{"EngineCore failed to start", "Engine core initialization failed",
	"WorkerProc failed to start", "Exception in worker", "Worker failed with error", "Scheduler hit an exception",
	"Received sigquit from a child process", "Failed core proc", "Engine process failed to start",
	"RuntimeError: Engine core initialization failed"}

// maxFailureLines bounds the quoted failure lines.
const maxFailureLines = 4

// reStarted is the line that says the API server is up: errors after it are the requests'.
var reStarted = regexp.MustCompile(`Application startup complete|Uvicorn running on|The server is fired up and ready to roll|Starting vLLM API server`)

func (p *parser) serverFail(r *record) {
	if len(p.ev.ServerFailure) < maxFailureLines {
		p.ev.ServerFailure = append(p.ev.ServerFailure, quote(r))
	}
}

// startFailure reads a start-failure line; it reports whether m was one.
func (p *parser) startFailure(r *record, m string) bool {
	for _, f := range startFailures {
		if strings.HasPrefix(m, f) {
			p.serverFail(r)
			return true
		}
	}
	return false
}

// finishFailure marks the evidence of a server that failed to start.
func (p *parser) finishFailure() {
	if len(p.ev.ServerFailure) == 0 {
		return
	}
	p.ev.Status = model.BackendFailed
}

// reGfx is an AMD GPU target ("gfx942", "gfx90a").
var reGfx = regexp.MustCompile(`\bgfx\d{2,3}[0-9a-f]\b`)

// platformHint names the platform from lines that show it without vLLM's detection line: ROCm
// (rocm.py records, gfx targets, torch.version.hip, "ROCm") and CPU (the CPU executor and
// worker records).
func platformHint(r *record, m string) string {
	switch r.file {
	case "rocm.py":
		return "rocm"
	case "cpu.py", "cpu_executor.py", "cpu_worker.py", "cpu_model_runner.py":
		return "cpu"
	}
	switch {
	case strings.Contains(m, "torch.version.hip"), strings.Contains(m, "ROCm"), reGfx.MatchString(m):
		return "rocm"
	case strings.Contains(m, "CPU executor"), strings.Contains(m, "CPUExecutor"), strings.Contains(m, "CpuPlatform"),
		strings.Contains(m, "on CPU backend"):
		return "cpu"
	}
	return ""
}
