package model

// File kinds, as sniffed from content.
const (
	KindResult        = "result"         // a benchmark result the run was read from
	KindCompanion     = "result-part"    // per-request records paired with a summary (llmperf, genai-perf)
	KindManifest      = "manifest"       // bundle.yaml
	KindLog           = "log"            // a server log
	KindUtilisation   = "utilisation"    // nvidia-smi, dcgmi, npu-smi, rocm-smi output
	KindTrace         = "trace"          // profiler trace
	KindPhases        = "phases"         // a phase list: which result files were warm-up, which measured
	KindEnvironment   = "environment"    // collect_env, check_env, nvidia-smi topo -m / -q, pip list / freeze
	KindServerMetrics = "server-metrics" // the model server's own metrics as a client scraped them (inference-perf's prometheus reports)
	KindOther         = "other"          // kept, not understood
)

// SourceFile is a file of a bundle, kept whole so later importers can re-read it.
type SourceFile struct {
	ID     int64  `json:"id,omitempty"`
	Name   string `json:"name"` // path inside the bundle
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	Kind   string `json:"kind"`
	Data   []byte `json:"-"`
}
