package library

import (
	"sync"

	"benchlens/internal/version"
	"benchlens/store"
)

// Version identifies this benchlens with its SQLite: what `--version`, the About dialog and
// every export cite.
var Version = sync.OnceValue(func() version.Info { return version.Current(store.SQLiteVersion()) })
