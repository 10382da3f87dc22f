package main

import (
	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// screenSize is the size of the primary screen in the window's units, read once the desktop
// driver has started (on its main thread, where GLFW is initialised); zero when unknown.
func screenSize(w fyne.Window) (size fyne.Size) {
	defer func() {
		if recover() != nil { // GLFW not initialised: a driver that is not GLFW's
			size = fyne.Size{}
		}
	}()
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return fyne.Size{}
	}
	mode := m.GetVideoMode()
	if mode == nil {
		return fyne.Size{}
	}
	scale := w.Canvas().Scale()
	if scale <= 0 {
		scale = 1
	}
	return fyne.NewSize(float32(mode.Width)/scale, float32(mode.Height)/scale)
}
