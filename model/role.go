package model

import "slices"

// Role is the part a run plays in a comparison, as bundle.yaml's `role` or `import --role`
// gives it.
type Role string

// Roles of a run.
const (
	RoleBaseline  Role = "baseline"
	RoleCandidate Role = "candidate"
	RoleOther     Role = "other" // the default: neither side declared
)

// Roles lists every role, in the order the app offers them.
var Roles = []Role{RoleBaseline, RoleCandidate, RoleOther}

// Valid reports whether r is one of Roles.
func (r Role) Valid() bool { return slices.Contains(Roles, r) }

// FileRole is the part a stored file plays for a run it is linked to.
type FileRole string

// File roles.
const (
	FileResult     FileRole = "result"     // the benchmark result the run was read from
	FilePart       FileRole = "part"       // per-request records paired with the result (a companion)
	FileAttachment FileRole = "attachment" // a log, trace, utilisation file or manifest beside it
)
