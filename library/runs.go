package library

import (
	"fmt"
	"strings"

	"benchlens/model"
	"benchlens/store"
)

// Rows lists the library's runs as `runs --json` shows them, each with the short evidence of
// its files. A damaged run ends the list: the rows before it are returned with its error.
func Rows(st *store.Store) ([]RunRow, error) {
	var batches [][]RunRow // joined once at the end: rows are large, not copied as they grow
	n := 0
	err := EachRows(st, func(batch []RunRow) error {
		batches = append(batches, batch)
		n += len(batch)
		return nil
	})
	if len(batches) == 1 {
		return batches[0], err
	}
	rows := make([]RunRow, 0, n)
	for _, b := range batches {
		rows = append(rows, b...)
	}
	return rows, err
}

// EachMedianRows gives fn the rows `runs` prints a batch at a time: EachRows' with each
// Metric's statistics the medians only (store.ListOptions.Medians), so Metric.Median and
// Used are as EachRows' but the other statistics are absent.
func EachMedianRows(st *store.Store, fn func([]RunRow) error) error {
	return eachRows(st, store.ListOptions{Medians: true}, fn)
}

// EachRows gives the library's rows (as Rows) to fn a batch at a time, in id order
// (store.List): a listing of 100,000 runs holds a batch, not the library.
func EachRows(st *store.Store, fn func([]RunRow) error) error {
	return eachRows(st, store.ListOptions{}, fn)
}

func eachRows(st *store.Store, opt store.ListOptions, fn func([]RunRow) error) error {
	return st.List(opt, func(b store.ListBatch) error {
		rows := make([]RunRow, len(b.Runs))
		for i, r := range b.Runs {
			rows[i] = Row(r, b.Evidence[r.ID])
		}
		return fn(rows)
	})
}

// Labels lists the library's arms (the runs' labels), sorted.
func Labels(st *store.Store) ([]string, error) { return st.Labels() }

// LabelRoles maps each arm to the role most of its runs have.
func LabelRoles(st *store.Store) (map[string]model.Role, error) { return st.LabelRoles() }

// Relabel moves runs to an arm and, unless role is "", gives them a role. The label is
// trimmed and must not be empty; the role must be one of model.Roles.
func Relabel(st *store.Store, ids []int64, label string, role model.Role) error {
	if role != "" && !role.Valid() {
		return fmt.Errorf("role %q: expected baseline, candidate or other", role)
	}
	return st.Relabel(ids, strings.TrimSpace(label), role)
}

// DeleteRuns removes runs and their samples, each in its own transaction; their files stay
// where they were imported from. It tries every run and returns the first error.
func DeleteRuns(st *store.Store, ids []int64) error {
	var first error
	for _, id := range ids {
		if err := st.DeleteRun(id); err != nil && first == nil {
			first = err
		}
	}
	return first
}
