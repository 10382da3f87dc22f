package gui

import (
	"sync"

	"benchlens/analysis/compare"
	"benchlens/library"
	"benchlens/store"
)

// armCache keeps loaded arms, so switching the compare view back and forth between arms
// does not reload millions of gaps. It is cleared whenever the library changes (an import,
// another library), and an arm loaded before a clear is not kept after it: it may lack the
// runs just imported, or come from the library just closed.
type armCache struct {
	mu   sync.Mutex
	arms map[string]compare.Arm
	gen  int // bumped by clear
	load func(*store.Store, string) (compare.Arm, error)
}

func newArmCache() *armCache {
	return &armCache{arms: map[string]compare.Arm{}, load: library.LoadArm}
}

func (c *armCache) get(st *store.Store, sel string) (compare.Arm, error) {
	c.mu.Lock()
	a, ok := c.arms[sel]
	gen := c.gen
	c.mu.Unlock()
	if ok {
		return a, nil
	}
	a, err := c.load(st, sel)
	if err != nil {
		return a, err
	}
	c.mu.Lock()
	if gen == c.gen {
		c.arms[sel] = a
	}
	c.mu.Unlock()
	return a, nil
}

func (c *armCache) clear() {
	c.mu.Lock()
	c.arms = map[string]compare.Arm{}
	c.gen++
	c.mu.Unlock()
}
