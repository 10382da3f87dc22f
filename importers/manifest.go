package importers

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"

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
	if role, _ := m["role"].(string); role != "" && role != "baseline" && role != "candidate" && role != "other" {
		return nil, &position.Error{File: name, Offset: -1, Err: fmt.Errorf("role %q: expected baseline, candidate or other", role)}
	}
	return model.Manifest(m), nil
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
