package gui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"fyne.io/fyne/v2/lang"
)

// cantWrite words a failure to write into folder as the analyst can act on it: "Can't write
// to /proc/sys (read-only). Choose another folder." It names the folder chosen, never the
// temporary file the write went through. ok is false for an error that is not about writing
// there (a comparison gone, a broken library).
func cantWrite(folder string, err error) (msg string, ok bool) {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return "", false
	}
	why := ""
	st, statErr := os.Stat(folder)
	switch {
	case statErr != nil:
		why = lang.L("it is not there")
	case !st.IsDir():
		why = lang.L("not a folder")
	case errors.Is(err, syscall.EROFS):
		why = lang.L("read-only")
	case errors.Is(err, fs.ErrPermission):
		why = lang.L("no permission")
	case errors.Is(err, syscall.ENOSPC):
		why = lang.L("the disk is full")
	case errors.Is(err, fs.ErrNotExist):
		// The folder is there yet takes no new file: a system folder (/proc/sys).
		why = lang.L("read-only")
	default:
		why = pe.Err.Error()
	}
	return fmt.Sprintf(lang.L("Can't write to %s (%s). Choose another folder."), folder, why), true
}
