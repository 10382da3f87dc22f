package library

import (
	"errors"
	"fmt"
	"strings"

	"benchlens/analysis/compare"
)

// ErrUsage marks a request the user must change, not a fault of the library: the CLI exits 2.
var ErrUsage = errors.New("usage error")

// usageError is a message that is an ErrUsage.
type usageError struct{ error }

func (usageError) Is(target error) bool { return target == ErrUsage }

// DistinctArms refuses an arm pair sharing runs: a run in both arms compares with itself, and
// the verdict would look more alike than the two configurations are.
func DistinctArms(base, cand compare.Arm) error {
	in := map[int64]bool{}
	for _, r := range base.Runs {
		in[r.Run.ID] = true
	}
	var shared []string
	for _, r := range cand.Runs {
		if in[r.Run.ID] {
			shared = append(shared, fmt.Sprint(r.Run.ID))
		}
	}
	if len(shared) == 0 {
		return nil
	}
	return usageError{fmt.Errorf("the baseline %q and the candidate %q share run(s) %s: give each arm its own runs",
		base.Label, cand.Label, strings.Join(shared, ", "))}
}
