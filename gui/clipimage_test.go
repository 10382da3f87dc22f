package gui

import (
	"os"
	"path/filepath"
	"testing"
)

// Without a clipboard tool for images, copyImage saves the PNG in the user's cache folder and
// returns its path, to copy as text.
func TestCopyImageWithoutAClipboardTool(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("PATH", t.TempDir()) // neither wl-copy nor xclip
	t.Setenv("XDG_CACHE_HOME", cache)
	got, err := copyImage([]byte("png bytes"), "benchlens-ttft_cdf.png")
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(cache, "benchlens", "charts", "benchlens-ttft_cdf.png")
	if got.tool != "" || got.path != want {
		t.Fatalf("copied %+v, want the path %s", got, want)
	}
	if data, err := os.ReadFile(want); err != nil || string(data) != "png bytes" {
		t.Errorf("the saved image reads %q, %v", data, err)
	}
}
