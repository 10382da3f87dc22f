// Package version says which benchlens this is, so a report can cite the program that judged
// it: the module version, the commit and its time from the Go build information, the build
// date the Makefile stamps, and the Go and SQLite versions.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Stamped by the Makefile (-ldflags "-X benchlens/internal/version.buildDate=…"): the build
// date, and the commit for builds the Go tool cannot stamp itself (a git worktree, whose .git
// is a file, or GOFLAGS=-buildvcs=false).
var buildDate, commit string

// Info identifies one build of benchlens.
type Info struct {
	Version    string `json:"version" yaml:"version"` // module version; "(devel)" for a plain go build
	Commit     string `json:"commit" yaml:"commit"`   // vcs.revision, "unknown" outside a checkout
	Modified   bool   `json:"modified" yaml:"modified"`
	CommitTime string `json:"commit_time,omitempty" yaml:"commit_time,omitempty"` // vcs.time
	BuildDate  string `json:"build_date" yaml:"build_date"`                       // "unknown" unless stamped
	Go         string `json:"go" yaml:"go"`
	SQLite     string `json:"sqlite" yaml:"sqlite"`
}

// Current reads this binary's build information; sqlite is the library's sqlite_version().
func Current(sqlite string) Info {
	i := Info{Version: "(devel)", Commit: "unknown", BuildDate: "unknown", Go: runtime.Version(), SQLite: sqlite}
	if buildDate != "" {
		i.BuildDate = buildDate
	}
	if commit != "" {
		i.Commit = commit
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return i
	}
	if v := bi.Main.Version; v != "" {
		i.Version = v
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			i.Commit = s.Value
		case "vcs.time":
			i.CommitTime = s.Value
		case "vcs.modified":
			i.Modified = s.Value == "true"
		}
	}
	return i
}

// ShortCommit is the first 12 characters of the commit, with "+modified" for a dirty tree.
func (i Info) ShortCommit() string {
	c := i.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	if i.Modified {
		c += "+modified"
	}
	return c
}

// String is the one-line citation: "benchlens v0.1.0 (commit 0123456789ab, built …, go1.26.8, SQLite 3.50.4)".
func (i Info) String() string {
	return fmt.Sprintf("benchlens %s (commit %s, built %s, %s, SQLite %s)", i.Version, i.ShortCommit(), i.BuildDate, i.Go, i.SQLite)
}

// Text is what `benchlens --version` prints and the About dialog shows, one field a line.
func (i Info) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "benchlens %s\n", i.Version)
	commit := i.Commit
	if i.Modified {
		commit += " (modified)"
	}
	if i.CommitTime != "" {
		commit += ", " + i.CommitTime
	}
	fmt.Fprintf(&b, "commit:     %s\n", commit)
	fmt.Fprintf(&b, "built:      %s\n", i.BuildDate)
	fmt.Fprintf(&b, "go:         %s\n", i.Go)
	fmt.Fprintf(&b, "sqlite:     %s\n", i.SQLite)
	return b.String()
}
