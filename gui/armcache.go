package gui

import (
	"sync"

	"benchlens/analysis/compare"
	"benchlens/library"
	"benchlens/store"
)

// armCache keeps loaded arms, so switching the compare view back and forth between arms
// does not reload millions of gaps. It is cleared whenever the library changes.
type armCache struct {
	mu   sync.Mutex
	arms map[string]compare.Arm
}

func newArmCache() *armCache { return &armCache{arms: map[string]compare.Arm{}} }

func (c *armCache) get(st *store.Store, sel string) (compare.Arm, error) {
	c.mu.Lock()
	a, ok := c.arms[sel]
	c.mu.Unlock()
	if ok {
		return a, nil
	}
	a, err := library.LoadArm(st, sel)
	if err != nil {
		return a, err
	}
	c.mu.Lock()
	c.arms[sel] = a
	c.mu.Unlock()
	return a, nil
}

func (c *armCache) clear() {
	c.mu.Lock()
	c.arms = map[string]compare.Arm{}
	c.mu.Unlock()
}
