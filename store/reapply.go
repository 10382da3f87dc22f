package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"benchlens/model"
)

// A bundle.yaml put beside runs already stored is not read by a re-import (a re-import never
// changes a stored run); the analyst applies it on request (import --reapply-manifests, the
// import report's button) through StoredRun and ApplyManifest.

// StoredRun is the id of the stored run with this fingerprint or read from these files (the
// result's SHA-256 and index, its parts' SHA-256), or 0: the run AddRun would find.
func (s *Store) StoredRun(fingerprint, resultSHA string, index int, partSHAs []string) (int64, error) {
	tx, err := s.begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() // it only reads
	if id, err := runWithFingerprint(tx, fingerprint); err != nil || id != 0 {
		return id, err
	}
	return runFromFiles(tx, resultSHA, index, partSHAs)
}

// ManifestUpdate is what the manifests beside a stored run make of it.
type ManifestUpdate struct {
	Label           string     // "" keeps the stored label
	Role            model.Role // "" keeps the stored role
	Phase, PhaseWhy string
	Manifest        model.Manifest
	// Point is the run's load point under the new manifest (model.PointOf of the run read
	// again with it), which declares what the request shape was; nil stores none.
	Point *model.LoadPoint
	Files []Attached // the bundle.yaml files read, linked to the run
}

// ApplyManifest gives a stored run its manifest, label, role and phase, and links the
// manifest files to it, in one transaction; the manifest is stored once (schema 10) and the
// one no run names any more goes.
func (s *Store) ApplyManifest(runID int64, u ManifestUpdate) error {
	return s.again(func() error { return s.applyManifest(runID, u) })
}

func (s *Store) applyManifest(runID int64, u ManifestUpdate) error {
	if err := s.Writable(); err != nil {
		return err
	}
	text, err := json.Marshal(u.Manifest)
	if err != nil {
		return err
	}
	tx, err := s.begin()
	if err != nil {
		return err
	}
	defer tx.Rollback() // no-op after Commit
	var header string
	if err := tx.QueryRow(`SELECT header FROM runs WHERE id = ?`, runID).Scan(&header); errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("no run %d in the library", runID)
	} else if err != nil {
		return err
	}
	fields := map[string]json.RawMessage{}
	if err := json.Unmarshal([]byte(header), &fields); err != nil {
		return fmt.Errorf("run %d: damaged header: %w", runID, err)
	}
	for key, v := range map[string]string{"phase": u.Phase, "phase_why": u.PhaseWhy} {
		if v == "" {
			delete(fields, key) // omitempty, as EncodeRun writes it
			continue
		}
		fields[key], _ = json.Marshal(v)
	}
	newHeader, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	manifestID, err := putManifest(tx, string(text))
	if err != nil {
		return err
	}
	var point any // NULL for none
	if u.Point != nil {
		point = encodePoint(u.Point)
	}
	if _, err := tx.Exec(`UPDATE runs SET header = ?, manifest = '', manifest_id = ?, listing = NULL, measured = NULL, point = ? WHERE id = ?`,
		string(newHeader), manifestID, point, runID); err != nil {
		return err
	}
	if u.Label != "" {
		if _, err := tx.Exec(`UPDATE runs SET label = ? WHERE id = ?`, NormLabel(u.Label), runID); err != nil {
			return err
		}
	}
	if u.Role != "" {
		if _, err := tx.Exec(`UPDATE runs SET role = ? WHERE id = ?`, string(u.Role), runID); err != nil {
			return err
		}
	}
	now := time.Now().UTC().Format(time.RFC3339)
	for _, f := range u.Files {
		id, err := putFile(tx, f.File, f.Packed, now)
		if err != nil {
			return fmt.Errorf("storing %s: %w", f.File.Name, err)
		}
		if _, err := linkFile(tx, runID, id, model.FileAttachment); err != nil {
			return err
		}
	}
	if err := dropUnusedManifests(tx); err != nil {
		return err
	}
	return s.commit(tx)
}
