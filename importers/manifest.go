package importers

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"benchlens/importers/position"
	"benchlens/model"
)

// ParseManifest reads a bundle.yaml. An empty file is an empty manifest.
func ParseManifest(name string, data []byte) (model.Manifest, error) {
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, yamlError(name, err)
	}
	if m == nil {
		return model.Manifest{}, nil
	}
	for _, k := range []string{"label", "role"} {
		if v, ok := m[k]; ok {
			if _, isStr := v.(string); !isStr {
				return nil, &position.Error{File: name, Offset: -1, Err: fmt.Errorf("key %q: expected a string", k)}
			}
		}
	}
	if role, _ := m["role"].(string); role != "" && !model.Role(role).Valid() {
		return nil, &position.Error{File: name, Offset: -1, Err: fmt.Errorf("role %q: expected baseline, candidate or other", role)}
	}
	if err := checkChange(m["change"]); err != nil {
		return nil, &position.Error{File: name, Offset: -1, Err: err}
	}
	if err := checkPhases(m); err != nil {
		return nil, &position.Error{File: name, Offset: -1, Err: err}
	}
	return model.Manifest(m), nil
}

// checkChange accepts the change as free text or as {what, fields, path} (METHOD.md rule 10).
func checkChange(v any) error {
	switch c := v.(type) {
	case nil, string:
		return nil
	case map[string]any:
		for k, x := range c {
			switch k {
			case "what":
				if _, ok := x.(string); !ok {
					return fmt.Errorf("change.what: expected a string")
				}
			case "fields":
				list, ok := x.([]any)
				if !ok && x != nil {
					return fmt.Errorf("change.fields: expected a list of record fields such as workload.model_name")
				}
				for i, f := range list {
					if s, ok := f.(string); !ok || s == "" {
						return fmt.Errorf("change.fields[%d]: expected a record field such as workload.model_name", i)
					}
				}
			case "path":
				if p, _ := x.(string); !slices.Contains(model.ChangePaths, model.ChangePath(p)) {
					names := make([]string, len(model.ChangePaths))
					for i, p := range model.ChangePaths {
						names[i] = string(p)
					}
					return fmt.Errorf("change.path %v: expected one of %s", x, strings.Join(names, ", "))
				}
			default:
				return fmt.Errorf("change.%s: unknown key (expected what, fields, path)", k)
			}
		}
		return nil
	}
	return fmt.Errorf("change: expected text or {what, fields, path}")
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// yamlError lifts the line number out of the YAML library's message.
func yamlError(name string, err error) error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	fe := &position.Error{File: name, Offset: -1, Err: errors.New(msg)}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		fe.Line, _ = strconv.Atoi(m[1])
	}
	return fe
}
