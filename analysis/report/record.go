package report

import (
	"encoding/json"
	"io"

	"go.yaml.in/yaml/v3"

	"benchlens/analysis/compare"
)

// JSON writes the record with METHOD.md's exact keys, indented.
func JSON(w io.Writer, rec any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(rec)
}

// YAML writes the record (or a list of records) as YAML with METHOD.md's exact keys.
func YAML(w io.Writer, rec any) error {
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(rec); err != nil {
		return err
	}
	return enc.Close()
}

// ReadYAML reads records written by YAML back.
func ReadYAML(r io.Reader) ([]compare.Record, error) {
	dec := yaml.NewDecoder(r)
	var out []compare.Record
	for {
		var recs []compare.Record
		var node yaml.Node
		if err := dec.Decode(&node); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		if node.Kind == yaml.DocumentNode && len(node.Content) > 0 && node.Content[0].Kind == yaml.SequenceNode {
			if err := node.Decode(&recs); err != nil {
				return nil, err
			}
			out = append(out, recs...)
			continue
		}
		var rec compare.Record
		if err := node.Decode(&rec); err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
}
