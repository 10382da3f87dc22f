package trace

import (
	"fmt"
	"reflect"
	"testing"

	"benchlens/importers/jsonx"
)

// scanEvent files what a whole decode of the event would (evtOf), or hands the event back to
// it; ignorable events are left early.
func TestScanEventMatchesDecode(t *testing.T) {
	for _, c := range scanCases {
		p := &jparser{data: []byte(c.in), procs: map[pkey]string{}, a: newAcc()}
		end, ok := p.scanEvent(0)
		if ok == c.bail {
			t.Errorf("%s: scanned %v, want %v", c.in, ok, !c.bail)
			continue
		}
		if !ok {
			continue
		}
		if end != len(c.in) {
			t.Errorf("%s: ended at %d of %d", c.in, end, len(c.in))
		}
		if p.left != c.ignore {
			t.Errorf("%s: left early %v, want %v", c.in, p.left, c.ignore)
		}
		if c.ignore {
			continue
		}
		v, err := jsonx.NewDecoder([]byte(c.in)).Decode()
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if want := evtOf(v.(map[string]any)); !reflect.DeepEqual(p.ev, want) {
			t.Errorf("%s:\nscanned %+v\ndecoded %+v", c.in, p.ev, want)
		}
	}
}

// FuzzScanEvent holds scanEvent to the whole decode: an event it reads to the end is one jsonx
// accepts, with the same members (evtOf); only an event it leaves early may go unchecked.
func FuzzScanEvent(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || data[0] != '{' {
			return
		}
		p := &jparser{data: data, procs: map[pkey]string{}, a: newAcc()}
		end, ok := p.scanEvent(0)
		if !ok || p.left {
			return
		}
		if end <= 0 || end > len(data) {
			t.Fatalf("ended at %d of %d", end, len(data))
		}
		d := jsonx.NewDecoder(data[:end])
		v, err := d.Decode()
		if err != nil || d.Offset() != end {
			t.Fatalf("scanned to %d what jsonx reads to %d: %v", end, d.Offset(), err)
		}
		// %+v, not DeepEqual: a NaN member is the same NaN on both sides.
		if got, want := fmt.Sprintf("%+v", p.ev), fmt.Sprintf("%+v", evtOf(v.(map[string]any))); got != want {
			t.Fatalf("scanned %s\ndecoded %s", got, want)
		}
	})
}

// scanCases are events in the shapes traces write them, and the ones scanEvent hands back.
var scanCases = []struct {
	in     string
	bail   bool // left to the whole decode
	ignore bool // left early, nothing filed
}{
	{in: `{"ph": "X", "cat": "kernel", "name": "k<a, b>(c)", "pid": 0, "tid": 7, "ts": 1700000000000.125, "dur": 12.5,
			"args": {"External id": 4, "grid": [132, 1, 1], "correlation": 4, "est. achieved occupancy %": 6}}`},
	{in: `{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "ts": 5, "dur": 2,
			"args": {"bytes": 4096, "correlation": "9", "memory bandwidth (GB/s)": 1.5e0}}`},
	{in: `{"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "ts": "1704161511420306.491", "dur": 3,
			"args": {"cuda_sync_kind": "Stream Sync", "correlation": 12.0}}`},
	{in: `{"name": "process_name", "ph": "M", "pid": "Spans", "tid": 0, "args": {"name": "GPU 0"}}`},
	{in: `{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "ts": 1, "dur": 9000}`},
	{in: `{"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#4", "pid": 1.5, "ts": 1, "dur": 9000, "args": {}}`},
	{in: `{"ph": "X", "cat": "Kernel", "name": "legacy", "pid": 2, "ts": 1, "dur": -Infinity}`},
	{in: `{"ph": "X", "name": "caf\u00e9", "cat": "kernel", "pid": true, "ts": null, "dur": [1], "args": 5}`},
	{in: `{"ph": "X", "name": "Task", "pid": 3, "ts": 7, "args": {"Task Type": "AI_CORE", "x": {"y": [null, false]}}}`},
	{in: `{"args": {"correlation": 1}, "ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "args": {"cbid": 211}, "ts": 1}`},
	{in: `{}`},
	{in: `{"ph": "f", "id": 4, "cat": "ac2g", "bp": "e", "unchecked": [1 2]}`, ignore: true},
	{in: `{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "args": {"Input Dims": [[1, 2]]}}`, ignore: true},
	{in: `{"name": "thread_name", "ph": "M", "args": {"name": "stream 7"}}`, ignore: true},
	{in: `{"ph\u0020": "X"}`, bail: true},
	{in: `{"ph": "X", "ts": 1, "dur": 01e}`, bail: true},
	{in: `{"ph": "X", "ts": 1 "dur": 2}`, bail: true},
	{in: `{"ph": "X", "args": {"a": "ctl` + "\x01" + `"}}`, bail: true},
}
