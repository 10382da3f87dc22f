package report

import (
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

// SheetChartData holds what the stage-delta bars and the Spread charts plot: per comparison,
// each stage's change split into better / worse / not significant columns (one bar colour
// each), and each run's median per arm as % of the baseline's median.
const SheetChartData = "Chart data"

var chartDataCols = []column{
	{"comparison", kInt, 11}, {"chart", kText, 12}, {"label", kText, 22},
	{"better", kPct, 11}, {"worse", kPct, 11}, {"not significant", kPct, 14},
	{"stage_position", kNum, 11}, {"run_vs_baseline_median_pct", kPct, 14},
}

// chartSpans are where one comparison's chart data lies in SheetChartData (1-based rows).
type chartSpans struct {
	bars           stageSpan
	spreadBase     stageSpan
	spreadCand     stageSpan
	spreadAxisName string // "1 TTFT, 2 TPOT, …": the stage each position stands for
	stages         int
}

// chartData lays out the rows of SheetChartData, in the Stages sheet's "all" order for the bars.
func chartData(entries []Entry) ([][]any, []chartSpans) {
	var rows [][]any
	spans := make([]chartSpans, len(entries))
	for i, e := range entries {
		perf := e.Record.Perf
		sp := &spans[i]
		sp.bars.first = len(rows) + 2
		for _, k := range metricOrder(perf) {
			d := perf[k]
			row := []any{e.ID, "stage deltas", k, nil, nil, nil, nil, nil}
			switch {
			case !d.Delta.Known():
			case d.Significant && d.Better:
				row[3] = d.Delta.F()
			case d.Significant && d.Worse:
				row[4] = d.Delta.F()
			default:
				row[5] = d.Delta.F()
			}
			rows = append(rows, row)
		}
		sp.bars.last = len(rows) + 1
		var names []string
		var stages []string
		for _, k := range metricOrder(perf) {
			d := perf[k]
			if len(d.BaselineRuns) > 0 && len(d.CandidateRuns) > 0 && d.Baseline.Known() && d.Baseline.F() != 0 {
				stages = append(stages, k)
				names = append(names, fmt.Sprintf("%d %s", len(stages), k))
			}
		}
		sp.spreadAxisName = "stage: " + strings.Join(names, ", ")
		sp.stages = len(stages)
		for arm, span := range []*stageSpan{&sp.spreadBase, &sp.spreadCand} {
			span.first = len(rows) + 2
			for j, k := range stages {
				d := perf[k]
				runs, label, off := d.BaselineRuns, "baseline", -0.15
				if arm == 1 {
					runs, label, off = d.CandidateRuns, "candidate", 0.15
				}
				for _, v := range runs {
					rows = append(rows, []any{e.ID, "spread " + k, label + " runs", nil, nil, nil, float64(j+1) + off, 100 * (v/d.Baseline.F() - 1)})
				}
			}
			span.last = len(rows) + 1
		}
	}
	return rows, spans
}

// barFills are the colours of better, worse and not significant bars (the app's).
var barFills = []string{"2E7D32", "C62828", "9E9E9E"}

// colouredDeltaChart draws the stage deltas as columns coloured better / worse / not
// significant (three overlapping series, each holding a bar's value or nothing: excelize
// colours points only on pie charts), with the intervals as high-low lines between dash
// markers at the bounds (excelize writes no error bars).
func colouredDeltaChart(f *excelize.File, cell string, sp stageSpan, stages stageSpan) error {
	cats := sheetRange(SheetChartData, 3, sp.first, sp.last)
	var series []excelize.ChartSeries
	for j, col := range []int{4, 5, 6} {
		series = append(series, excelize.ChartSeries{
			Name: sheetRange(SheetChartData, col, 1, 1), Categories: cats, Values: sheetRange(SheetChartData, col, sp.first, sp.last),
			Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{barFills[j]}},
		})
	}
	bars := &excelize.Chart{
		Type:         excelize.Col,
		Dimension:    excelize.ChartDimension{Width: 480, Height: 300},
		VaryColors:   ptr(false),
		Title:        chartTitle("stage deltas (%) with intervals"),
		Legend:       excelize.ChartLegend{Position: "bottom"},
		Series:       series,
		YAxis:        excelize.ChartAxis{MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: `0.0"%"`}},
		XAxis:        excelize.ChartAxis{TickLabelPosition: excelize.ChartTickLabelLow},
		ShowBlanksAs: "gap",
		Overlap:      ptr(100),
		GapWidth:     ptr(uint(80)),
	}
	bound := func(col int) excelize.ChartSeries {
		return excelize.ChartSeries{
			Name: sheetRange(SheetStages, col, 1, 1), Categories: cats, Values: sheetRange(SheetStages, col, stages.first, stages.last),
			Line:   excelize.LineOptions{Type: excelize.LineNone},
			Marker: excelize.ChartMarker{Symbol: "dash", Size: 9, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"404040"}}},
		}
	}
	interval := &excelize.Chart{
		Type:   excelize.Line,
		Series: []excelize.ChartSeries{bound(stagesLowCol), bound(stagesHighCol)},
		XAxis:  excelize.ChartAxis{HighLowLines: true, TickLabelPosition: excelize.ChartTickLabelLow},
	}
	return f.AddChart(SheetCharts, cell, bars, interval)
}

// spreadChart draws each run's median per arm as % of the baseline's median, per stage: the
// values the test compared.
func spreadChart(f *excelize.File, cell string, sp chartSpans) error {
	ch := &excelize.Chart{
		Type:      excelize.Scatter,
		Dimension: excelize.ChartDimension{Width: 480, Height: 300},
		Title:     chartTitle("spread: run medians vs the baseline's median (%)"),
		Legend:    excelize.ChartLegend{Position: "bottom"},
		XAxis: excelize.ChartAxis{Title: chartTitle(sp.spreadAxisName), MajorUnit: 1, Minimum: ptr(0.5), Maximum: ptr(float64(sp.stages) + 0.5),
			NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0"}, TickLabelPosition: excelize.ChartTickLabelLow},
		YAxis: excelize.ChartAxis{MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: `0.0"%"`}},
	}
	for j, span := range []stageSpan{sp.spreadBase, sp.spreadCand} {
		ch.Series = append(ch.Series, excelize.ChartSeries{
			Name:       sheetRange(SheetChartData, 3, span.first, span.first),
			Categories: sheetRange(SheetChartData, 7, span.first, span.last),
			Values:     sheetRange(SheetChartData, 8, span.first, span.last),
			Line:       excelize.LineOptions{Type: excelize.LineNone},
			Marker:     excelize.ChartMarker{Symbol: "circle", Size: 6, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{[]string{"7F7F7F", "2F75B5"}[j]}}},
		})
	}
	return f.AddChart(SheetCharts, cell, ch)
}
