package store

import (
	"math"
	"reflect"
	"testing"

	"benchlens/model"
)

// Measured statistics come back to the bit (a NaN, an infinity, a negative zero among them);
// KeepMeasured fills a run's empty cell and never replaces statistics stored before it, in
// either engine; bytes this benchlens did not write read as none.
func TestMeasuredStatsKeptAndReadBack(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		stats := func(p50 float64) *model.MeasuredStats {
			return &model.MeasuredStats{Requests: 2, Dropped: 1, Quantiles: map[string][3]float64{
				model.TTFT: {p50, math.Inf(1), math.Copysign(0, -1)}, model.ITL: {math.NaN(), 1e-300, 2}}}
		}
		bits := func(ms *model.MeasuredStats) map[string][3]uint64 {
			if ms == nil {
				return nil
			}
			out := map[string][3]uint64{}
			for k, q := range ms.Quantiles {
				out[k] = [3]uint64{math.Float64bits(q[0]), math.Float64bits(q[1]), math.Float64bits(q[2])}
			}
			return out
		}
		stored := sampleRun("vllm")
		stored.Measured = stats(1.5)
		a, err := s.AddRun(NewRun{Run: stored, Fingerprint: "a", Files: []Attached{resultFile("a")}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: "b", Files: []Attached{resultFile("b")}})
		if err != nil {
			t.Fatal(err)
		}
		runs, err := s.RunsWithRequests([]int64{a, b})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(bits(runs[0].Measured), bits(stored.Measured)) || runs[0].Measured.Requests != 2 || runs[0].Measured.Dropped != 1 || runs[1].Measured != nil {
			t.Fatalf("read back %+v and %+v", runs[0].Measured, runs[1].Measured)
		}
		runs[0].Measured, runs[1].Measured = stats(7), stats(8)
		if err := s.KeepMeasured(runs); err != nil {
			t.Fatal(err)
		}
		again, err := s.RunsWithRequests([]int64{a, b})
		if err != nil {
			t.Fatal(err)
		}
		if got := again[0].Measured.Quantiles[model.TTFT][0]; got != 1.5 {
			t.Errorf("stored statistics replaced: p50 %v", got)
		}
		if !reflect.DeepEqual(bits(again[1].Measured), bits(stats(8))) {
			t.Errorf("kept %+v, want %+v", again[1].Measured, stats(8))
		}
	})
	for _, b := range [][]byte{nil, {}, {9}, {measuredVersion}, {measuredVersion, 2, 1, 4, 't', 't', 'f', 't'}, {measuredVersion, 0xff}} {
		if ms := unpackMeasured(b); ms != nil {
			t.Errorf("%v read as %+v", b, ms)
		}
	}
}
