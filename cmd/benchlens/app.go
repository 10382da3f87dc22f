package main

import (
	"fmt"
	"io"
	"path/filepath"

	"fyne.io/fyne/v2/app"

	"benchlens/gui"
	_ "benchlens/internal/clocale" // before Fyne reads the locale
	"benchlens/store"
)

// openApp opens the desktop app on the library (--db, $BENCHLENS_DB, or the last one opened,
// else the default). The app never puts samples into it: an empty library offers "Open the
// sample library", a file of its own beside the default library (`make run` loads the samples
// into its demo library with the demo command first).
func openApp(stderr io.Writer, db string) int {
	a := app.NewWithID("io.benchlens.app")
	def, err := store.DefaultPath()
	if err != nil {
		fmt.Fprintf(stderr, "benchlens: no library location: %v\n", err)
		return exitRejected
	}
	path := db
	if path == "" {
		path = def
		if last := a.Preferences().String("library.path"); last != "" {
			path = last
		}
	}
	st, err := store.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "benchlens: %v\n", err)
		return exitRejected
	}
	defer func() { st.Close() }()
	w := a.NewWindow("benchlens")
	u := gui.New(a, w, st, gui.Options{SampleLibrary: filepath.Join(filepath.Dir(def), "samples.db"), OpenLibrary: store.Open})
	w.ShowAndRun()
	st = u.Store()
	return exitOK
}
