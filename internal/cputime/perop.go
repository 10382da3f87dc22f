package cputime

import "testing"

// PerOp starts counting a benchmark's CPU time; the function it returns reports what was
// spent since, per op, as cpu-ms/op (the unit scripts/bench-targets.sh prints beside the
// wall time), or nothing where the CPU time cannot be read.
func PerOp(b *testing.B) (report func()) {
	cpu0 := Self()
	return func() {
		if cpu0 >= 0 && b.N > 0 {
			b.ReportMetric(float64((Self()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		}
	}
}
