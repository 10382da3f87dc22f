package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2/app"

	"benchlens/gui"
	_ "benchlens/internal/clocale" // before Fyne reads the locale
	"benchlens/store"
)

// openApp opens the desktop app on the library appLibrary chooses. The app never puts samples
// into it: an empty library offers "Open the sample library", a file of its own beside the
// user's library (`make run` loads the samples into its demo library with the demo command
// first).
func openApp(stderr io.Writer, db string) int {
	a := app.NewWithID("io.benchlens.app")
	user, err := store.UserPath()
	if err != nil {
		fmt.Fprintf(stderr, "benchlens: no library location: %v\n", err)
		return exitRejected
	}
	st, notice, err := appLibrary(db, os.Getenv("BENCHLENS_DB"), a.Preferences().String("library.path"), user)
	if notice != "" {
		fmt.Fprintf(stderr, "benchlens: %s\n", notice)
	}
	if err != nil {
		fmt.Fprintf(stderr, "benchlens: %v\n", err)
		return exitRejected
	}
	defer func() { st.Close() }()
	w := a.NewWindow("benchlens")
	u := gui.New(a, w, st, gui.Options{SampleLibrary: filepath.Join(filepath.Dir(user), "samples.db"), OpenLibrary: store.Open, Notice: notice})
	a.Lifecycle().SetOnStarted(func() { u.FitScreen(screenSize(w)) })
	w.ShowAndRun()
	st = u.Store()
	return exitOK
}

// appLibrary opens the app's library: --db, else $BENCHLENS_DB, else the library opened last,
// else the user's own. Only the one opened last may fail quietly (a team library whose server
// is down, a file on a drive not mounted): the user's own opens instead, and notice says so,
// for the status line; what the user named on the command line or in the environment must
// open or the app does not start.
func appLibrary(db, env, last, user string) (st *store.Store, notice string, err error) {
	switch {
	case db != "":
		st, err = store.Open(db)
	case env != "":
		st, err = store.Open(env)
	case last != "" && last != user:
		if _, statErr := os.Stat(last); !store.IsPostgres(last) && statErr != nil {
			// Never created anew: a file that is gone (moved, on a drive not mounted) would
			// come back as an empty library in its place.
			notice = fmt.Sprintf("The library opened last (%s) is not there. This is your own library.", q(last))
			st, err = store.Open(user)
			break
		}
		if st, err = store.Open(last); err == nil {
			return st, "", nil
		}
		notice = fmt.Sprintf("The library opened last (%s) did not open: %v. This is your own library.", store.Redacted(last), err)
		st, err = store.Open(user)
	default:
		st, err = store.Open(user)
	}
	return st, notice, err
}
