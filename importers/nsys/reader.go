package nsys

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"benchlens/importers/trace"
	"benchlens/model"
)

// reader holds what the queries of one export gather.
type reader struct {
	s        *schema
	tot      *trace.Totals
	gpuNames map[int64]string // TARGET_INFO_GPU id → name
	gpuMem   map[int64]int64
	used     map[int64]bool // devices that ran device work
	stepWins []stepWin
	warnings []model.Warning
	dupCalls bool // the 2.x schema: every runtime call listed twice under one correlation id
}

// durations of device work: end − start, never negative.
const dur = `MAX("end" - start, 0)`

// copyKinds are ENUM_CUDA_MEMCPY_OPER's ids (the same numbers in the 2.x schema, which has no
// ENUM tables), by direction: arrays are device memory, unified memory migrations count as
// the direction they move.
var copyKinds = map[int64]string{1: "HtoD", 2: "DtoH", 3: "HtoD", 4: "DtoH", 5: "DtoD", 6: "DtoD", 7: "DtoD", 8: "DtoD",
	9: "HtoH", 10: "PtoP", 11: "HtoD", 12: "DtoH", 13: "DtoD"}

// callTotals and addCalls count the runtime and driver API calls by name, each call once. The 3.x schema lists a
// call once: its rows are streamed and summed per name. The 2.x schema lists every call twice
// under one correlation id (unsuffixed with eventClass 67, suffixed with eventClass 0), so there
// a call is its correlation id within its process, which SQLite groups (sorting on disk when
// the table is large). Without runtime rows the SYNCHRONIZATION records stand for the syncs
// (stream-wait-event ones block nothing). callTotals reads while the device activity is read.
func (r *reader) callTotals() (map[int64]*agg, error) {
	byName := map[int64]*agg{}
	if r.s.has(tRuntime, "start", "end", "nameId") {
		q := `SELECT nameId, ` + dur + ` FROM ` + tRuntime
		if r.dupCalls && r.s.has(tRuntime, "correlationId") {
			pid := "0"
			if r.s.has(tRuntime, "globalTid") {
				pid = "(globalTid >> 24) & 16777215"
			}
			q = `SELECT MAX(nameId), MAX(` + dur + `) FROM ` + tRuntime + ` WHERE correlationId > 0 GROUP BY ` + pid + `, correlationId
				UNION ALL SELECT nameId, ` + dur + ` FROM ` + tRuntime + ` WHERE correlationId IS NULL OR correlationId <= 0`
		}
		err := eachRow(context.Background(), r.s.db, q, func(x row) {
			a := byName[x[0]]
			if a == nil {
				a = &agg{}
				byName[x[0]] = a
			}
			a.n++
			a.ns += x[1]
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tRuntime, err)
		}
	}
	return byName, nil
}

// addCalls adds the calls under their names; without runtime rows, the syncs of
// SYNCHRONIZATION.
func (r *reader) addCalls(byName map[int64]*agg) error {
	if len(byName) > 0 {
		for id, a := range byName {
			name, err := r.stringOf(id)
			if err != nil {
				return err
			}
			r.tot.Call(name, int(a.n), a.ns)
		}
		return nil
	}
	if r.s.has(tSync, "start", "end", "syncType") {
		var n, t sql.NullInt64
		if err := r.s.db.QueryRow(`SELECT COUNT(*), SUM(`+dur+`) FROM `+tSync+` WHERE syncType <> 2`).Scan(&n, &t); err != nil {
			return fmt.Errorf("%s: %w", tSync, err)
		}
		if n.Int64 > 0 {
			r.tot.Call("cudaStreamSynchronize", int(n.Int64), t.Int64)
			r.warnings = append(r.warnings, model.Warn(model.WarnNsysSyncRecords))
		}
	}
	return nil
}

// stringOf looks a name up in StringIds; "" when absent.
func (r *reader) stringOf(id int64) (string, error) {
	if !r.s.has("StringIds", "id", "value") {
		return "", nil
	}
	var v sql.NullString
	err := r.s.db.QueryRow(`SELECT value FROM StringIds WHERE id = ?`, id).Scan(&v)
	if err != nil && err != sql.ErrNoRows {
		return "", fmt.Errorf("StringIds: %w", err)
	}
	return v.String, nil
}

// gpus reads TARGET_INFO_GPU: every GPU of the machine, by id.
func (r *reader) gpus() error {
	r.gpuNames, r.gpuMem = map[int64]string{}, map[int64]int64{}
	if !r.s.has(tGPU, "id", "name") {
		return nil
	}
	mem := "0"
	if r.s.has(tGPU, "totalMemory") {
		mem = "totalMemory"
	}
	return r.s.each(`SELECT id, name, `+mem+` FROM `+tGPU, func(rows *sql.Rows) error {
		var id, m sql.NullInt64
		var name sql.NullString
		if err := rows.Scan(&id, &name, &m); err != nil {
			return err
		}
		if _, dup := r.gpuNames[id.Int64]; !dup {
			r.gpuNames[id.Int64] = strings.TrimSpace(name.String)
			r.gpuMem[id.Int64] = m.Int64
		}
		return nil
	})
}

// deviceLabel names the GPUs that ran the device work ("NVIDIA A100-SXM4-80GB").
func (r *reader) deviceLabel() string {
	seen := map[string]bool{}
	var names []string
	for id := range r.used {
		if n := r.gpuNames[id]; n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// facts is what the export says of the machine: its GPUs (TARGET_INFO_GPU lists all of them,
// not only those the program used) and the driver (TARGET_INFO_SYSTEM_ENV's NvDriverVersion,
// encoded as major·100000 + minor·100 + patch).
func (r *reader) facts() (*model.Facts, error) {
	f := &model.Facts{}
	var sources []string
	if len(r.gpuNames) > 0 {
		count := map[string]int{}
		mem := map[string]int64{}
		var order []string
		ids := make([]int64, 0, len(r.gpuNames))
		for id := range r.gpuNames {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		for _, id := range ids {
			n := r.gpuNames[id]
			if count[n] == 0 {
				order = append(order, n)
			}
			count[n]++
			mem[n] = r.gpuMem[id]
		}
		var parts []string
		for _, n := range order {
			s := fmt.Sprintf("%d × %s", count[n], n)
			if mem[n] > 0 {
				s += fmt.Sprintf(", %.1f GiB each", float64(mem[n])/(1<<30))
			}
			parts = append(parts, s)
		}
		f.HardwareSKU = strings.Join(parts, " + ")
		sources = append(sources, "TARGET_INFO_GPU")
	}
	if r.s.has(tEnv, "name", "value") {
		var v sql.NullString
		err := r.s.db.QueryRow(`SELECT value FROM ` + tEnv + ` WHERE name = 'NvDriverVersion' LIMIT 1`).Scan(&v)
		if err != nil && err != sql.ErrNoRows {
			return nil, fmt.Errorf("%s: %w", tEnv, err)
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(v.String), 10, 64); err == nil && n > 100000 {
			f.DriverVersion = fmt.Sprintf("%d.%d.%02d", n/100000, n/100%1000, n%100)
			sources = append(sources, "TARGET_INFO_SYSTEM_ENV NvDriverVersion")
		}
	}
	if f.HardwareSKU == "" && f.DriverVersion == "" {
		return nil, nil
	}
	f.Source = "nsys export: " + strings.Join(sources, ", ")
	return f, nil
}
