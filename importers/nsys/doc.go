// Package nsys reads NVIDIA Nsight Systems output (more-formats.md G2, G3) into profiler-trace
// evidence: the SQLite export (`nsys export --type sqlite`, both schema generations, 2.x with
// EXPORT_META_DATA and every runtime call listed twice, 3.x with META_DATA_EXPORT and ENUM_*
// tables) and the `nsys stats` reports (CSV and console text, current and older report
// names). A .nsys-rep report is recognised and left unread with what to do.
//
// The export is read read-only through the SQLite driver the library uses, its rows streamed
// and grouped by SQLite, so memory stays bounded whatever the file's size: kernels by name
// (device time, operator families, attention kernels), copies by kind with bytes, runtime
// calls by name (launches, blocking syncs; distinct correlation ids, so 2.x's duplicates count
// once), the GPUs (hardware and driver facts), NVTX ranges named as steps, and each device's
// busy timeline (the utilisation shape of METHOD.md rule 8 when no smi trace is attached).
// A stats report holds totals only: the same figures without a timeline.
package nsys
