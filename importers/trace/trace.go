// Package trace reduces profiler traces to the overhead and hotspot figures of METHOD.md rule 5
// (formats/traces.md 4.2): copies per direction, kernel launches, blocking syncs, device busy
// fraction, idle-gap histogram and top device ops.
//
// It reads PyTorch profiler / Kineto Chrome-trace JSON (modern and PyTorch 1.8–1.9 legacy, CUDA and
// ROCm, plain or gzip), the Ascend torch_npu trace_view.json (a bare array), and the Ascend CSV
// summaries kernel_details.csv (and msprof op_summary), op_statistic.csv and step_trace_time.csv
// (also cluster_step_trace_time.csv).
package trace

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"benchlens/importers/format"
	"benchlens/importers/position"
	"benchlens/model"
)

// DefaultMaxBytes caps the decompressed size of a gzip trace when Parse is given maxBytes <= 0.
const DefaultMaxBytes = 1 << 30

// sniffBytes is how much of a file (decompressed) Detect looks at.
const sniffBytes = 64 << 10

// ErrTooLarge is wrapped by the error Parse returns when a gzip trace decompresses beyond the cap.
var ErrTooLarge = errors.New("decompressed trace exceeds the size limit")

// ErrNotTrace is wrapped by the error Parse returns for input that is no trace it reads.
var ErrNotTrace = errors.New("not a profiler trace")

func isGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

// gunzip decompresses data in memory, refusing output beyond maxBytes.
func gunzip(data []byte, maxBytes int64) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	// The trailer holds the size mod 2^32: a good first guess for one-member files.
	if len(data) >= 18 {
		hint := int64(binary.LittleEndian.Uint32(data[len(data)-4:]))
		if hint > 0 && hint <= maxBytes && hint < 1<<31 {
			buf.Grow(int(hint) + bytes.MinRead)
		}
	}
	n, err := buf.ReadFrom(io.LimitReader(zr, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if n > maxBytes {
		return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, maxBytes)
	}
	return buf.Bytes(), nil
}

// head returns the first bytes of the (decompressed) file for sniffing.
func head(data []byte) []byte {
	if isGzip(data) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil
		}
		buf := make([]byte, sniffBytes)
		n, _ := io.ReadFull(zr, buf)
		return buf[:n]
	}
	return data[:min(len(data), sniffBytes)]
}

func trimLead(b []byte) []byte {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	return bytes.TrimLeft(b, " \t\r\n")
}

// Layout is a file layout this package reads; the importers' registry gives each its row.
type Layout int

// The layouts, as Detect tells them apart.
const (
	NotTrace        Layout = iota
	Kineto                 // PyTorch profiler / Kineto Chrome-trace object (plain or gzip)
	EventArray             // a bare Chrome-trace event array (torch_npu trace_view.json)
	KernelDetails          // Ascend kernel_details.csv, msprof op_summary_*.csv
	OpStatistic            // Ascend op_statistic.csv
	StepTrace              // Ascend step_trace_time.csv, cluster_step_trace_time.csv
	OperatorDetails        // torch_npu operator_details.csv
	APIStatistic           // torch_npu api_statistic.csv
	Communication          // torch_npu communication.json
	ProfilerInfo           // torch_npu profiler_info_<rank>.json
)

// Detect tells the layout of data (raw file bytes; may be gzip) from its first 64 KiB: the one
// place that decides whether a file is a profiler trace.
func Detect(data []byte) Layout {
	h := trimLead(head(data))
	if len(h) == 0 {
		return NotTrace
	}
	switch h[0] {
	case '{':
		q := format.Quote(h) // one pass for the keys asked below
		if q.Has("traceEvents") || q.Has("schemaVersion") && (q.Has("deviceProperties") || q.Has("computeProperties")) {
			return Kineto
		}
		return ascendJSON(q)
	case '[':
		if isEvent(firstElement(h)) {
			return EventArray
		}
		return NotTrace
	}
	switch csvKindOf(h) {
	case csvKernelDetails:
		return KernelDetails
	case csvOpStatistic:
		return OpStatistic
	case csvStepTrace:
		return StepTrace
	case csvOperatorDetails:
		return OperatorDetails
	case csvAPIStatistic:
		return APIStatistic
	}
	return NotTrace
}

// firstElement returns the keys of the first object of a JSON array, read from the head
// alone; a first object longer than the head gives the keys before the cut.
func firstElement(h []byte) map[string]bool {
	dec := json.NewDecoder(bytes.NewReader(h))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	keys := map[string]bool{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			break
		}
		key, _ := k.(string)
		keys[key] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return keys
}

// isEvent tells a Chrome-trace event by its keys: ph, and ts or pid (M events carry no ts).
func isEvent(keys map[string]bool) bool { return keys["ph"] && (keys["ts"] || keys["pid"]) }

// Parse reduces a trace to model.TraceEvidence. Gzip is detected by magic bytes and read in memory,
// with a cap on the decompressed size (parameter maxBytes; refuse beyond it with a clear error).
// Errors name the file and where (line for CSV, byte offset for JSON).
func Parse(name string, data []byte, maxBytes int64) (*model.TraceEvidence, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if isGzip(data) {
		var err error
		if data, err = gunzip(data, maxBytes); err != nil {
			return nil, &position.Error{File: name, Offset: -1, Err: err}
		}
	}
	body := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	lead := trimLead(body)
	if len(lead) == 0 {
		return nil, &position.Error{File: name, Offset: -1, Err: fmt.Errorf("%w: empty file", ErrNotTrace)}
	}
	switch lead[0] {
	case '{':
		// The head decides, as in Detect: a whole 100 MB trace searched for Ascend's keys
		// cost a quarter of its import.
		if q := format.Quote(lead[:min(len(lead), sniffBytes)]); !q.Has("traceEvents") {
			switch ascendJSON(q) {
			case Communication:
				return parseCommunication(name, body)
			case ProfilerInfo:
				return parseProfilerInfo(name, body)
			}
		}
		return parseJSON(name, data)
	case '[':
		return parseJSON(name, data)
	}
	switch k := csvKindOf(lead); k {
	case csvKernelDetails:
		return parseKernelDetails(name, body)
	case csvOpStatistic:
		return parseOpStatistic(name, body)
	case csvStepTrace:
		return parseStepTrace(name, body)
	case csvOperatorDetails:
		return parseOperatorDetails(name, body)
	case csvAPIStatistic:
		return parseAPIStatistic(name, body)
	}
	return nil, &position.Error{File: name, Line: 1, Offset: -1,
		Err: fmt.Errorf("%w: neither trace JSON nor an Ascend kernel_details / op_statistic / step_trace_time header", ErrNotTrace)}
}
