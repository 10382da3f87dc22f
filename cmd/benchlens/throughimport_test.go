package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// Every file the readers' own tests read also goes the way a user's file goes: into a bundle
// (beside a result, when it is evidence), through `import`, and then `show`. What they say is
// golden, one file per reader, so a file that parses in its unit test but is filed away unread
// beside a result, or that stops saying what it said, shows as a diff.
func TestEveryTestdataFileThroughImport(t *testing.T) {
	evidence := []struct{ golden, dir string }{
		{"serverlog", "../../importers/serverlog/testdata"},
		{"reallogs", "../../library/testdata/reallogs"},
		{"utilisation", "../../importers/utilisation/testdata"},
		{"trace", "../../importers/trace/testdata"},
		{"fixture-traces", "../../testdata/fixtures/traces"}, // real traces of public projects
		{"environment", "../../importers/environment/testdata"},
		{"fixture-environment", "../../testdata/fixtures/turn3-env"}, // real collect_env / check_env dumps
	}
	for _, src := range evidence {
		t.Run(src.golden, func(t *testing.T) {
			var got strings.Builder
			for _, file := range testdataFiles(t, src.dir) {
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				bundle := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)))
				writeFile(t, filepath.Join(bundle, filepath.Base(file)), data)
				writeFile(t, filepath.Join(bundle, "result.json"), []byte(besideResult))
				got.WriteString(throughImport(t, file, bundle, false))
			}
			golden(t, "through-import/"+src.golden+".txt", got.String())
		})
	}
	t.Run("result", func(t *testing.T) {
		var got strings.Builder
		dirs, err := filepath.Glob("../../importers/result/testdata/*")
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range dirs {
			if info, err := os.Stat(dir); err == nil && info.IsDir() && filepath.Base(dir) != "fuzz" && filepath.Base(dir) != "golden" {
				got.WriteString(throughImport(t, dir, dir, true))
			}
		}
		golden(t, "through-import/result.txt", got.String())
	})
}

// besideResult is the smallest vLLM result: evidence is only kept beside a run.
const besideResult = `{"date": "20250101-000000", "backend": "vllm", "model_id": "m", "num_prompts": 2, "completed": 2, "mean_ttft_ms": 10.0}`

// testdataFiles lists the inputs of a testdata folder: not its goldens, fuzz corpus or notes.
func testdataFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	skip := map[string]bool{"README.md": true, "SOURCES.md": true}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && !skip[e.Name()] {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatalf("%s: no files", dir)
	}
	return files
}

func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// throughImport imports bundle into a new library and returns what import said and, per run,
// what show says: all of it for results, the evidence and files for evidence.
func throughImport(t *testing.T, file, bundle string, whole bool) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "lib.db")
	out, errOut, code := bl(t, "--db", db, "import", bundle)
	var b strings.Builder
	b.WriteString("=== " + filepath.ToSlash(strings.TrimPrefix(file, "../../")) + "\n")
	b.WriteString(out + errOut)
	if code != 0 {
		fmt.Fprintf(&b, "exit %d\n", code)
	}
	ids := regexp.MustCompile(`(?m)^\s*(\d+)\s`).FindAllStringSubmatch(mustRun(t, "--db", db, "runs"), -1)
	for _, id := range ids {
		show := mustRun(t, "--db", db, "show", id[1])
		if !whole {
			show = evidencePart(show)
		}
		b.WriteString("--- show " + id[1] + "\n" + show)
	}
	b.WriteString("\n")
	parent, err := filepath.Abs(filepath.Dir(bundle))
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(b.String(), parent, "$DIR")
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := bl(t, args...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// evidencePart is show's output from its first evidence section (or its warnings) on.
func evidencePart(show string) string {
	first := len(show)
	for _, head := range []string{"\nwarning: ", "\nserver log (", "\nutilisation (", "\nprofiler trace (", "\nenvironment (", "\nfiles\n"} {
		if i := strings.Index(show, head); i >= 0 && i < first {
			first = i
		}
	}
	return strings.TrimPrefix(show[first:], "\n")
}

// Each real environment dump beside a result: `show --json` carries the facts the file states
// (its SOURCES row) in the file's evidence and in the run's merged fingerprint, each fact with
// its file and line. The golden pins both.
func TestEnvironmentFixturesShowJSON(t *testing.T) {
	var got strings.Builder
	for _, file := range testdataFiles(t, "../../testdata/fixtures/turn3-env") {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		bundle := filepath.Join(t.TempDir(), "run")
		writeFile(t, filepath.Join(bundle, filepath.Base(file)), data)
		writeFile(t, filepath.Join(bundle, "result.json"), []byte(besideResult))
		db := filepath.Join(t.TempDir(), "lib.db")
		mustRun(t, "--db", db, "import", bundle)
		var d struct {
			Evidence    []json.RawMessage `json:"evidence"`
			Fingerprint json.RawMessage   `json:"fingerprint"`
		}
		if err := json.Unmarshal([]byte(mustRun(t, "--db", db, "show", "1", "--json")), &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Evidence) != 1 {
			t.Fatalf("%s: %d pieces of evidence, want the dump's", file, len(d.Evidence))
		}
		var b bytes.Buffer
		json.Indent(&b, []byte(fmt.Sprintf(`{"file": %q, "evidence": %s, "fingerprint": %s}`, filepath.Base(file), d.Evidence[0], d.Fingerprint)), "", "  ")
		got.WriteString(b.String() + "\n")
	}
	golden(t, "through-import/fixture-environment.json", got.String())
}
