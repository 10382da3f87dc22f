package main

import (
	"fmt"
	"io"

	"fyne.io/fyne/v2/app"

	"benchlens/gui"
	_ "benchlens/internal/clocale" // before Fyne reads the locale
	"benchlens/store"
)

// openApp opens the desktop app on the library (--db, $BENCHLENS_DB, or the last one opened,
// else the default). An empty library gets the sample bundles on first start.
func openApp(stderr io.Writer, db string) int {
	a := app.NewWithID("io.benchlens.app")
	path := db
	if path == "" {
		var err error
		if path, err = store.DefaultPath(); err != nil {
			fmt.Fprintf(stderr, "benchlens: no library location: %v\n", err)
			return exitRejected
		}
		if last := a.Preferences().String("library.path"); last != "" && db == "" {
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
	u := gui.New(a, w, st, gui.Options{LoadDemoIfEmpty: true, OpenLibrary: store.Open})
	w.ShowAndRun()
	st = u.Store()
	return exitOK
}
