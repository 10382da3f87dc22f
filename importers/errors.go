package importers

import (
	"errors"
)

// Skip is an input left out or kept unread on purpose (a link, a pipe, a file of no known
// format): the import report names it as a note, not as a refusal.
type Skip struct{ Why string }

func (s *Skip) Error() string { return s.Why }

// IsSkip reports whether err is a note about a file left unread rather than a refusal.
func IsSkip(err error) bool {
	var s *Skip
	return errors.As(err, &s)
}
