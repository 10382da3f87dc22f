package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A bundle.yaml with a key that is not text or a NaN or infinite number gets a line naming
// the manifest, its line and the key, and the run is imported without it. Before, the run
// was refused with a Go error naming neither ("json: unsupported type:
// map[interface {}]interface {}", "json: unsupported value: +Inf").
func TestManifestKeysJSONCannotKeep(t *testing.T) {
	results, _ := filepath.Glob("../../demo/samples/baseline/run-1/vllm-*.json")
	result, err := os.ReadFile(results[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ manifest, want string }{
		{"label: x\nworkload:\n  2: bar\n", `bundle.yaml: line 3: key "workload.2": a key must be text, not int`},
		{"label: x\n1: foo\n", `bundle.yaml: line 2: key "1": a key must be text, not int`},
		{"label: x\nnode:\n  - {true: 1}\n", `bundle.yaml: line 3: key "node[0].true": a key must be text, not bool`},
		{"label: x\nnotes: .nan\n", `bundle.yaml: line 2: key "notes": .nan is not a number a manifest can keep (NaN or infinite)`},
		{"label: x\nnode:\n  numa: -.Inf\n", `bundle.yaml: line 3: key "node.numa": -.Inf is not a number a manifest can keep`},
	} {
		dir := filepath.Join(t.TempDir(), "b")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "bundle.yaml"), []byte(tc.manifest), 0o644)
		os.WriteFile(filepath.Join(dir, filepath.Base(results[0])), result, 0o644)
		db := filepath.Join(t.TempDir(), "lib.db")
		out, stderr, code := bl(t, "--db", db, "import", dir)
		if code != exitRejected || !strings.Contains(out, "imported 1 run") || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "json:") {
			t.Errorf("%q: exit %d\n%s%s\nwant %s", tc.manifest, code, out, stderr, tc.want)
		}
	}
}
