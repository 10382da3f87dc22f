// Package chart draws benchlens' comparison charts with gonum/plot: distributions of the
// stage metrics per arm (CDF, histogram), device utilisation over time, and the change of each
// stage (overall and per input-length bucket) with its interval and significance.
//
// Charts are plain *plot.Plot values, rendered off-screen with vgimg (Image, PNG) or vgsvg
// (SVG): the same image feeds the desktop app and the exported files, and this package never
// imports Fyne. Styles are exported package variables with their defaults; the custom
// plotters (ECDF, StepHistogram, BusyLine, Deltas) carry their own style fields.
//
// Baseline and candidate keep fixed colours (BaselineColor, CandidateColor) on every chart,
// and charts shown side by side share their axes (ShareX, ShareY).
package chart
