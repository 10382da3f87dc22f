package report

import (
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	"benchlens/internal/version"
	"benchlens/model"
)

// YAMLEntries writes the entries' records as one YAML list with METHOD.md's exact keys. Each
// record carries extra keys: `comparison` (id, saved_at), `analyst` (the current annotation
// and its history) and `exported_by` (the build that wrote the file; the record's own
// `benchlens` is the build that judged it). ReadYAML reads the list back
// and ignores them, so the records come back as they were written.
func YAMLEntries(w io.Writer, entries []Entry) error {
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, e := range entries {
		var by *version.Info
		if e.Benchlens.Version != "" {
			by = &e.Benchlens
		}
		var n yaml.Node
		if err := n.Encode(e.Record); err != nil {
			return fmt.Errorf("comparison %d: %w", e.ID, err)
		}
		if n.Kind != yaml.MappingNode {
			return fmt.Errorf("comparison %d: record is not a mapping", e.ID)
		}
		var extra yaml.Node
		if err := extra.Encode(struct {
			Comparison struct {
				ID      int64  `yaml:"id"`
				SavedAt string `yaml:"saved_at,omitempty"`
			} `yaml:"comparison"`
			Analyst    yamlAnalyst   `yaml:"analyst"`
			ExportedBy *version.Info `yaml:"exported_by,omitempty"`
		}{
			Comparison: struct {
				ID      int64  `yaml:"id"`
				SavedAt string `yaml:"saved_at,omitempty"`
			}{e.ID, e.SavedAt},
			Analyst:    newYAMLAnalyst(e),
			ExportedBy: by,
		}); err != nil {
			return fmt.Errorf("comparison %d: %w", e.ID, err)
		}
		n.Content = append(n.Content, extra.Content...)
		list.Content = append(list.Content, &n)
	}
	return YAML(w, list)
}

type yamlAnnotation struct {
	At             string       `yaml:"at"`
	Author         string       `yaml:"author"`
	Note           string       `yaml:"note"`
	Tags           []string     `yaml:"tags"`
	StatusOverride model.Status `yaml:"status_override"`
	OverrideReason string       `yaml:"override_reason"`
}

type yamlAnalyst struct {
	yamlAnnotation `yaml:",inline"`
	History        []yamlAnnotation `yaml:"history,omitempty"`
}

func toYAMLAnnotation(a Annotation) yamlAnnotation {
	tags := a.Tags
	if tags == nil {
		tags = []string{}
	}
	return yamlAnnotation{a.At, a.Author, a.Note, tags, a.StatusOverride, a.OverrideReason}
}

func newYAMLAnalyst(e Entry) yamlAnalyst {
	out := yamlAnalyst{yamlAnnotation: toYAMLAnnotation(e.Annotation)}
	for _, h := range e.History {
		out.History = append(out.History, toYAMLAnnotation(h))
	}
	return out
}
