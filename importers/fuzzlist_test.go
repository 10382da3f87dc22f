package importers

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every fuzz target of the module runs in make fuzz: a target added without a line there
// was never fuzzed (four were missing).
func TestEveryFuzzTargetInMakeFuzz(t *testing.T) {
	makefile, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	_, rule, ok := strings.Cut(string(makefile), "\nfuzz:")
	if !ok {
		t.Fatal("no fuzz target in the Makefile")
	}
	rule, _, _ = strings.Cut(rule, "\n\n")
	target := regexp.MustCompile(`^func (Fuzz\w+)\(`)
	filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if m := target.FindStringSubmatch(sc.Text()); m != nil {
				pkg := "./" + filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../")))
				inLoop := strings.Contains(rule, " "+m[1]+" ") || strings.Contains(rule, " "+m[1]+";")
				named := (strings.Contains(rule, "-fuzz "+m[1]+" ") || strings.Contains(rule, "-fuzz '^"+m[1]+"$$'")) && strings.Contains(rule, pkg)
				if !inLoop && !named {
					t.Errorf("%s (%s) is not in make fuzz", m[1], path)
				}
			}
		}
		return sc.Err()
	})
}
