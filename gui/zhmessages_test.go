package gui

import (
	"bytes"
	"log"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"sync"
	"testing"
)

// Every message the views draw has a Simplified Chinese entry, also those translated from a
// variable (a check's name, a stage's title, a chart's legend words) that
// TestChineseTranslationsComplete cannot read in the source: the views are drawn in zh_CN
// and a message Fyne finds no entry for ("Translation failure") fails the test. Fyne reads
// the locale once at start, so the views are drawn in a child process started in zh_CN.
func TestChineseViewsHaveEveryMessage(t *testing.T) {
	if testing.Short() {
		t.Skip("draws every view in a child process")
	}
	if !inChinese(t) {
		return
	}
	var mu sync.Mutex
	var logged bytes.Buffer
	log.SetOutput(writerFunc(func(b []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return logged.Write(b) }))
	defer log.SetOutput(os.Stderr)

	u := newDemoApp(t)
	if got := get(func() string { return drawnText(u.win.Content()) }); !regexp.MustCompile(`[\p{Han}]`).MatchString(got) {
		t.Fatalf("the app is not in Chinese in the child (LANG=%s): %s", os.Getenv("LANG"), got)
	}
	for _, pair := range [][2]string{{"baseline", "established"}, {"baseline", "fallback"}, {"sweep-baseline", "sweep-candidate"}} {
		ui(func() { u.showView(viewCompare); u.compare.setArm(true, pair[0]); u.compare.setArm(false, pair[1]) })
		shown(t, u, pair[0], pair[1])
		ui(func() { u.showView(viewVerdict) })
	}
	ui(func() { u.showView(viewRun); u.run.show(1) })
	eventually(t, "run 1", func() bool { return u.run.current == 1 && len(u.run.summary.Objects) > 0 })
	ui(func() { u.showView(viewHistory) })
	ui(func() { _ = drawnText(u.win.Content()) })

	mu.Lock()
	text := logged.String()
	mu.Unlock()
	var missing []string
	for _, m := range regexp.MustCompile(`message "((?:[^"\\]|\\.)*)" not found in language`).FindAllStringSubmatch(text, -1) {
		if !slices.Contains(missing, m[1]) {
			missing = append(missing, m[1])
		}
	}
	for _, m := range missing {
		t.Errorf("no zh_Hans entry for %q", m)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// inChinese reports whether this is the child process a test runs itself again in, in zh_CN,
// to be drawn in Chinese: Fyne reads the locale once, when the process starts. In the parent
// it runs the test there, fails it with the child's output unless it passed, and reports false.
func inChinese(t *testing.T) bool {
	if os.Getenv("BENCHLENS_ZH_CHILD") != "" {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v")
	cmd.Env = append(os.Environ(), "BENCHLENS_ZH_CHILD=1", "LANGUAGE=zh_CN", "LANG=zh_CN.UTF-8", "LC_ALL=zh_CN.UTF-8", "LC_MESSAGES=zh_CN.UTF-8")
	if out, err := cmd.CombinedOutput(); err != nil || !bytes.Contains(out, []byte("--- PASS: "+t.Name())) {
		t.Fatalf("in zh_CN: %v\n%s", err, out)
	}
	return false
}
