package gui

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// copied is how copyImage put a chart on the clipboard: through a system tool, or as the
// path of a file it saved the image to (Fyne's clipboard holds text only).
type copied struct{ tool, path string }

// clipTools put a PNG on the system clipboard: Wayland's, then X11's.
var clipTools = [][]string{
	{"wl-copy", "--type", "image/png"},
	{"xclip", "-selection", "clipboard", "-t", "image/png", "-i"},
}

// copyImage puts the PNG data on the clipboard with the first clipboard tool installed, else
// writes it to the user's cache folder under name and returns that path, to copy as text.
func copyImage(data []byte, name string) (copied, error) {
	for _, t := range clipTools {
		if _, err := exec.LookPath(t[0]); err != nil {
			continue
		}
		cmd := exec.Command(t[0], t[1:]...)
		cmd.Stdin = bytes.NewReader(data)
		if err := cmd.Run(); err == nil {
			return copied{tool: t[0]}, nil
		}
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "benchlens", "charts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return copied{}, fmt.Errorf("copying the chart: %w", err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return copied{}, fmt.Errorf("copying the chart: %w", err)
	}
	return copied{path: path}, nil
}
