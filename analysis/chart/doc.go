// Package chart draws benchlens' comparison charts with gonum/plot: distributions of the
// stage metrics per arm (CDF, histogram), device utilisation over time, and the change of each
// stage (overall and per input-length bucket) with its interval and significance.
//
// Charts are plain *plot.Plot values, rendered off-screen with vgimg (Image, PNG) or vgsvg
// (SVG): the same image feeds the desktop app and the exported files, and this package never
// imports Fyne. Styles are exported package variables with their defaults; the custom
// plotters (ECDF, StepHistogram, BusyLine, Deltas) carry their own style fields.
//
// Every chart is fitted to the size it is drawn at (fit.go): titles and axis labels wrap,
// ticks thin out, and the legend sits in a band below the axes, never over the data; a
// series can be hidden by its legend entry (Hide) and the axes zoomed (Zoom). Layout says
// where each part falls, for hit-testing and for tests.
//
// Baseline and candidate keep fixed colours (BaselineColor, CandidateColor) on every chart,
// and charts shown side by side share their axes (ShareX, ShareY).
//
// A new chart of a comparison is a file here with its constructor (NewX for a plotter that
// checks its data, X(title, rec …) (*plot.Plot, reader, error) for the chart), built by
// ForComparison under a new entry of Keys: the app's Compare view and the exported PNG and
// SVG files take their charts from there, in that order (the workbook draws its own, native
// charts). Give it a golden image in testdata (golden_test.go).
package chart
