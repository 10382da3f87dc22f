package store

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"benchlens/model"
)

// check's files-missing-bytes sums each chunk's length as its first bytes say (it reads no
// more of a chunk): a file of two chunks that lost one says how many bytes the other holds,
// whichever of the two was lost and however large the one kept.
func TestCheckSumsTheChunksLeft(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		const size = ChunkSize + 70000
		rng := rand.New(rand.NewPCG(1, 2))
		files := map[int]int64{} // chunk lost → file id
		for _, lost := range []int{0, 1} {
			var data strings.Builder
			for data.Len() < size {
				fmt.Fprintf(&data, "%.6f,", rng.Float64()*1000) // printed floats: Huffman-coded or S2's
			}
			content := data.String()[:size]
			name := fmt.Sprintf("r%d.json", lost)
			f := &model.SourceFile{Name: name, Size: size, SHA256: name, Kind: model.KindResult, Data: []byte(content)}
			id, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: name, Files: []Attached{{File: f, Role: "result"}}})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.db.QueryRow(`SELECT source_id FROM runs WHERE id = ?`, id).Scan(&f.ID); err != nil {
				t.Fatal(err)
			}
			files[lost] = f.ID
		}
		if rep, err := s.Check(); err != nil || !rep.OK() {
			t.Fatalf("check before: %v %v", rep, err)
		}
		for lost, id := range files {
			if _, err := s.db.Exec(`DELETE FROM file_chunks WHERE file_id = ? AND seq = ?`, id, lost); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := s.Check()
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			fmt.Sprintf("file %d (r0.json): %d bytes, its chunks hold %d; import it again to restore them", files[0], size, 70000),
			fmt.Sprintf("file %d (r1.json): %d bytes, its chunks hold %d; import it again to restore them", files[1], size, ChunkSize),
		}
		if fmt.Sprint(rep.MissingBytes) != fmt.Sprint(want) {
			t.Errorf("files missing bytes:\n%q\nwant\n%q", rep.MissingBytes, want)
		}
	})
}
