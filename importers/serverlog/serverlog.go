// Package serverlog reads vLLM (0.4 → today), vllm-ascend and SGLang server logs into a
// model.LogEvidence: engine and version, platform and plugins, engine config and CLI args,
// dtype and silent overrides, eager / graph / torch.compile evidence, KV-cache figures, and the
// attention backend the server was asked to use (target) against the one each process resolved,
// with every guard / fallback line and fatal selection error
// (formats/logs-and-utilisation.md sections 1-6 and 8).
//
// Lines are taken apart from the outside in: ANSI colour codes, outer wrappers
// (docker-compose "svc-1  | ", journald, external ISO timestamps, batch launchers), JSON logging
// records, the process tag "(EngineCore_DP0 pid=…)", then the vLLM record prefix (both the
// ≤0.7 "file.py:N]" and ≥0.8 "[file.py:N]" forms) or the SGLang "[date time TP0] " prefix.
// Every quoted model.Line carries the 1-based line number of the original file and the line
// as the server wrote it (colour codes and outer wrappers removed; for JSON records, the
// message).
package serverlog

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"benchlens/importers/position"
	"benchlens/model"
)

const sniffWindow = 64 << 10

// markers are message texts only vLLM, vllm-ascend and SGLang servers print.
var markers = []string{
	"vLLM API server version", "vLLM server version", "LLM engine (v", "Initializing an LLM engine",
	"non-default args: {", "args: Namespace(", "Automatically detected platform", "Platform plugin ",
	"No platform detected, vLLM", "server_args=ServerArgs(", "[vllm-ascend]", "Attention backend not set.",
	"Attention backend not specified.", "Decode batch. #running-req", "Prefill batch. #new-seq",
	"Load weight begin", "Starting vLLM API server",
}

// Sniff reports whether data looks like a vLLM / vllm-ascend / SGLang server log (it reads the
// first 64 KiB).
func Sniff(data []byte) bool {
	if len(data) > sniffWindow {
		data = data[:sniffWindow]
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return false
	}
	s := string(data)
	prefixed := 0
	for n := 1; s != ""; n++ {
		var line string
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			line, s = s, ""
		}
		if badControl(line) >= 0 {
			return false
		}
		r := split(n, line)
		for _, m := range markers {
			if strings.Contains(r.msg, m) {
				return true
			}
		}
		if r.level != "" && r.file != "" && !r.sgl && !r.json && strings.HasSuffix(r.file, ".py") {
			prefixed++
			if prefixed >= 3 {
				return true
			}
		}
	}
	return false
}

// badControl returns the index of a byte no text log holds (C0 controls other than tab, line
// feeds, form feed, backspace, bell and escape), or -1.
func badControl(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 {
			switch c {
			case '\t', '\n', '\r', '\v', '\f', '\b', 0x07, 0x1b:
			default:
				return i
			}
		}
	}
	return -1
}

// Parse reads a server log. It fails only for input that cannot be a log at all (NUL bytes
// anywhere, binary control bytes in the first 64 KiB); the error names the file and the line.
func Parse(name string, data []byte) (*model.LogEvidence, error) {
	p := newParser()
	text := string(data)
	n := 0
	for off := 0; off < len(text); {
		n++
		var line string
		if i := strings.IndexByte(text[off:], '\n'); i >= 0 {
			line = text[off : off+i]
			off += i + 1
		} else {
			line = text[off:]
			off = len(text)
		}
		if strings.IndexByte(line, 0) >= 0 {
			return nil, &position.Error{File: name, Line: n, Offset: -1, Err: errors.New("NUL byte: binary data, not a server log")}
		}
		if off-len(line) < sniffWindow {
			if i := badControl(line); i >= 0 {
				return nil, &position.Error{File: name, Line: n, Offset: -1, Err: fmt.Errorf("control byte 0x%02x: binary data, not a server log", line[i])}
			}
		}
		if line == "" {
			continue
		}
		r := split(n, line)
		p.handle(&r)
	}
	return p.finish(), nil
}
