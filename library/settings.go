package library

import (
	"fmt"
	"slices"
	"strings"

	"benchlens/analysis/compare"
	"benchlens/store"
)

// Settings are the library's analysis settings: METHOD.md's defaults with what the library
// stores over them. The command line and the app both start from them, so the same arms get
// the same verdict in both.
func Settings(st *store.Store) (compare.Settings, error) {
	stored, err := st.Settings()
	if err != nil {
		return compare.DefaultSettings, err
	}
	return applySettings(stored)
}

// SetSettings puts the keys of reset back to their defaults and stores values (key → text),
// all checked first and written together; it returns the settings now in force.
func SetSettings(st *store.Store, values map[string]string, reset []string) (compare.Settings, error) {
	stored, err := st.Settings()
	if err != nil {
		return compare.DefaultSettings, err
	}
	for _, k := range reset {
		if !slices.Contains(compare.SettingKeys(), k) {
			return compare.DefaultSettings, fmt.Errorf("unknown setting %q (known: %s)", k, strings.Join(compare.SettingKeys(), ", "))
		}
		delete(stored, k)
	}
	for k, v := range values {
		if !slices.Contains(compare.SettingKeys(), k) {
			return compare.DefaultSettings, fmt.Errorf("unknown setting %q (known: %s)", k, strings.Join(compare.SettingKeys(), ", "))
		}
		stored[k] = v
	}
	set, err := applySettings(stored)
	if err != nil {
		return set, err
	}
	canonical := map[string]string{}
	for k := range values {
		canonical[k] = set.Text(k)
	}
	return set, st.SetSettings(canonical, reset)
}

// applySettings lays stored texts over the defaults, in declaration order.
func applySettings(stored map[string]string) (compare.Settings, error) {
	set := compare.DefaultSettings
	for _, key := range compare.SettingKeys() {
		if text, ok := stored[key]; ok {
			if err := set.Set(key, text); err != nil {
				return compare.DefaultSettings, fmt.Errorf("library settings: %w", err)
			}
		}
	}
	return set, nil
}
