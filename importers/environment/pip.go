package environment

import (
	"regexp"
	"strings"
)

// pip list prints a table, "Package  Version" over a rule of dashes, then one package a line
// ("torch  2.5.1", with an editable project location as a third column); pip freeze (and
// pip list --format=freeze, which collect_env runs) prints "name==version" lines, with
// "name @ file:///…" for direct references and "-e git+…" for editable installs.

var (
	freezeLine = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*===?\s*(\S+)$`)
	directRef  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*(\[[^\]]*\])?\s+@\s+\S+$`)
)

// isPipList reports the table pip list prints: "Package Version" over dashes.
func isPipList(ls []string) bool {
	var head []string
	for _, l := range ls {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "```") {
			continue
		}
		if head == nil {
			head = strings.Fields(t)
			if len(head) < 2 || head[0] != "Package" || head[1] != "Version" {
				return false
			}
			continue
		}
		return strings.HasPrefix(t, "---") && strings.Trim(t, "- ") == ""
	}
	return false
}

// isPipFreeze reports pip freeze output: at least three requirement lines, at least half
// of them pinned with ==, and nothing else but comments and options.
func isPipFreeze(ls []string) bool {
	pinned, other := 0, 0
	for _, l := range ls {
		t := strings.TrimSpace(l)
		switch {
		case t == "", strings.HasPrefix(t, "#"), strings.HasPrefix(t, "```"):
		case freezeLine.MatchString(t):
			pinned++
		case directRef.MatchString(t), strings.HasPrefix(t, "-e "), strings.HasPrefix(t, "--"):
			other++
		default:
			return false
		}
	}
	return pinned >= 3 && pinned >= other
}

// pip reads either layout into the package list.
func (d *doc) pip(table bool) {
	past := false
	for _, l := range d.lines {
		t := strings.TrimSpace(l.text)
		if table {
			if !past {
				past = strings.HasPrefix(t, "---")
				continue
			}
			if f := strings.Fields(t); len(f) >= 2 {
				d.pkg(f[0], f[1], l.n)
			}
			continue
		}
		if m := freezeLine.FindStringSubmatch(t); m != nil {
			d.pkg(m[1], m[3], l.n)
		}
	}
}
