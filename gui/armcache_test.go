package gui

import (
	"testing"

	"benchlens/analysis/compare"
	"benchlens/store"
)

// An arm whose load began before the library changed is handed to its caller but not kept:
// the next comparison loads it again, with the runs just imported.
func TestArmLoadedBeforeAClearIsNotKept(t *testing.T) {
	c := newArmCache()
	started, release := make(chan struct{}), make(chan struct{})
	loads := 0
	c.load = func(*store.Store, string) (compare.Arm, error) {
		loads++
		if loads == 1 {
			close(started)
			<-release
		}
		return compare.Arm{Label: "baseline"}, nil
	}
	done := make(chan struct{})
	go func() {
		c.get(nil, "baseline")
		close(done)
	}()
	<-started
	c.clear() // an import finished meanwhile
	close(release)
	<-done
	c.get(nil, "baseline")
	if loads != 2 {
		t.Errorf("%d loads, want 2: the arm loaded before the clear was kept", loads)
	}
	c.get(nil, "baseline")
	if loads != 2 {
		t.Errorf("%d loads, want 2: an arm loaded after the clear was not kept", loads)
	}
}
