package importers

import (
	"errors"
	"fmt"
	"math"
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
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(name, err)
	}
	if err := jsonable(name, &doc, ""); err != nil {
		return nil, err
	}
	var m map[string]any
	if err := doc.Decode(&m); err != nil {
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

// jsonable refuses, with the manifest's line and the key, what a run's stored manifest
// (JSON) cannot keep: a key that is not text (1:, true:, ~:) and a number that is NaN or
// infinite (.nan, .inf). Before, the run itself failed with a Go error naming neither.
// Aliases are not followed: their anchor was checked where it stands.
func jsonable(name string, n *yaml.Node, path string) error {
	fail := func(line int, format string, args ...any) error {
		return &position.Error{File: name, Line: line, Offset: -1, Err: fmt.Errorf(format, args...)}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if err := jsonable(name, c, path); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if err := jsonable(name, c, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			key := k.Value
			if path != "" {
				key = path + "." + k.Value
			}
			if k.Kind != yaml.ScalarNode || (k.Tag != "!!str" && k.Tag != "!!merge") {
				return fail(k.Line, "key %s: a key must be text, not %s; write it in quotes (\"%s\": …)", strconv.Quote(key), strings.TrimPrefix(k.ShortTag(), "!!"), k.Value)
			}
			if err := jsonable(name, v, key); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		if n.ShortTag() == "!!float" {
			f, _ := strconv.ParseFloat(n.Value, 64) // 1e999 is out of range: +Inf
			if math.IsNaN(f) || math.IsInf(f, 0) || slices.Contains([]string{".nan", ".inf", "+.inf", "-.inf"}, strings.ToLower(n.Value)) {
				return fail(n.Line, "key %s: %s is not a number a manifest can keep (NaN or infinite); write it in quotes or leave it out", strconv.Quote(path), n.Value)
			}
		}
	}
	return nil
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
