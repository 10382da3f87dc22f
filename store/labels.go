package store

import "golang.org/x/text/unicode/norm"

// Labels are stored in Unicode's composed form (NFC): a folder "café" made on macOS names
// itself decomposed (e + U+0301), which looks the same but never matched the label typed.
// A label is looked up in both forms, so runs an older benchlens stored decomposed are found.

// NormLabel is a label as the library stores it.
func NormLabel(label string) string { return norm.NFC.String(label) }

// labelForms are the spellings a label may be stored under: composed, and decomposed.
func labelForms(label string) (nfc, nfd string) {
	return norm.NFC.String(label), norm.NFD.String(label)
}
