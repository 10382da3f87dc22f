package environment

import (
	"bytes"
	"os"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Detect and Parse: no panic, and every fact, device and
// variable points inside the file.
func FuzzParse(f *testing.F) {
	for _, name := range inputs(f) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) > 16<<10 {
			data = data[:16<<10]
		}
		f.Add(data)
	}
	f.Add([]byte("PyTorch version: 1\nIs debug build: False\nGPU Topology:\nGPU0\tCPU Affinity\nGPU0\t X \t0-3\t0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Detect(data)
		ev, _, err := Parse("fuzz.txt", data)
		if err != nil || ev == nil {
			return
		}
		n := bytes.Count(data, []byte{'\n'}) + 1
		in := func(what string, l int) {
			if l < 0 || l > n {
				t.Fatalf("%s at line %d outside 1..%d", what, l, n)
			}
		}
		for k, fact := range ev.Facts {
			in(k, fact.N)
			if fact.Text == "" {
				t.Fatalf("%s: empty value", k)
			}
		}
		for _, d := range ev.Devices {
			in("device "+d.ID, d.Line)
			in("affinity of "+d.ID, d.NUMALine)
		}
		for _, v := range ev.Env {
			in(v.Name, v.Line)
		}
	})
}
