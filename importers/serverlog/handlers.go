package serverlog

// The dispatch table: one named handler per first word of a message (onbackend.go,
// ongraph.go, onstartup.go). Each reads the lines that start with its word and says whether
// it took the line; a line it leaves goes on to generic.

// handlers files a message by its first word (firstWord), as fyne-io/terminal's escape map
// files an escape by its key.
var handlers = map[string]func(p *parser, r *record, m string) bool{
	// attention backends (onbackend.go)
	"Using":           (*parser).onUsing,
	"Use":             (*parser).onUse,
	"Cannot":          (*parser).onCannot,
	"Invalid":         (*parser).onInvalid,
	"Attention":       (*parser).onAttention,
	"Please":          (*parser).onPlease,
	"No":              (*parser).onNo,
	"The":             (*parser).onThe,
	"Some":            (*parser).onSome,
	"Selected":        (*parser).onSelected,
	"Set":             (*parser).onSet,
	"FlashAttention3": (*parser).onFlashAttention3,
	"FlashMLA":        (*parser).onFlashMLA,
	"FlashInfer":      (*parser).onFlashInfer,
	"Flash":           (*parser).onFlash,
	"Multimodal":      (*parser).onMultimodal,

	// graphs, torch.compile, eager (ongraph.go)
	"Capturing":   (*parser).onCapturing,
	"CUDA":        (*parser).onCUDA,
	"Capture":     (*parser).onCapture,
	"Cudagraph":   (*parser).onCudagraph,
	"Compiling":   (*parser).onCompiling,
	"Compilation": (*parser).onCompilation,
	"Dynamo":      (*parser).onDynamo,
	"Directly":    (*parser).onDirectly,
	"Data":        (*parser).onData,
	"Enforce":     (*parser).onEnforce,
	"Graph":       (*parser).onGraph,
	"PIECEWISE":   (*parser).onPiecewise,
	"NPU":         (*parser).onNPU,
	"Torchair":    (*parser).onTorchair,
	"To":          (*parser).onTo,
	"Ray":         (*parser).onRay,
	"WideEP":      (*parser).onWideEP,
	"`":           (*parser).onBacktick,

	// versions, arguments, platform, figures (onstartup.go)
	"Casting":       (*parser).onCast,
	"Upcasting":     (*parser).onCast,
	"Downcasting":   (*parser).onCast,
	"Chunked":       (*parser).onChunked,
	"GPU":           (*parser).onGPU,
	"Initializing":  (*parser).onInitializing,
	"If":            (*parser).onIf,
	"Automatically": (*parser).onAutomatically,
	"Available":     (*parser).onAvailable,
	"Platform":      (*parser).onPlatform,
	"Resolved":      (*parser).onResolved,
	"Forcing":       (*parser).onForcing,
	"Failed":        (*parser).onFailed,
	"#":             (*parser).onBlocks,
	"Maximum":       (*parser).onMaximum,
	"Model":         (*parser).onModel,
	"Loading":       (*parser).onLoading,
	"KV":            (*parser).onKV,
	"args":          (*parser).onArgs,
	"non-default":   (*parser).onNonDefault,
	"name":          (*parser).onName,
	"vLLM":          (*parser).onVLLM,
	"plugin":        (*parser).onPlugin,
	"server_args":   (*parser).onServerArgs,
	"sglang":        (*parser).onSGLang,
	"-":             (*parser).onPluginEntry,

	// the scheduler's running and waiting requests (onqueue.go)
	"Avg":     (*parser).onQueue,
	"Engine":  (*parser).onQueue,
	"Decode":  (*parser).onQueue,
	"Prefill": (*parser).onQueue,
}

// firstWord is the key a message is filed by: a letter, digit or '_' and the letters, digits,
// '_' and '-' after it ("Using", "WideEP" of "WideEP:", "non-default", "server_args" of
// "server_args=ServerArgs(…"), or the first byte of a message that starts otherwise ("#",
// "-", "`").
func firstWord(m string) string {
	i := 0
	for ; i < len(m); i++ {
		c := m[i]
		if c == '_' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-' && i > 0 {
			continue
		}
		break
	}
	if i == 0 {
		return m[:1]
	}
	return m[:i]
}
