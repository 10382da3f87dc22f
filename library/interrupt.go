package library

import (
	"os"
	"os/signal"
	"syscall"
)

// Interrupts turns the first SIGINT or SIGTERM into a closed channel, so an import finishes
// the run it is storing, removes the files it stored ahead for the others and exits non-zero;
// a second signal kills the process as usual (SQLite rolls an open transaction back on the
// next open). release restores the default handling.
func Interrupts() (stop <-chan struct{}, release func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	ch, done := make(chan struct{}), make(chan struct{})
	go func() {
		select {
		case <-sig:
			signal.Reset(os.Interrupt, syscall.SIGTERM)
			close(ch)
		case <-done:
		}
	}()
	return ch, func() {
		signal.Stop(sig)
		close(done)
	}
}
