package report

import (
	"fmt"

	"github.com/xuri/excelize/v2"
)

// sloCharts draws, under the SLO table, per comparison: attainment against load for both
// arms (capacity is where a line crosses the target), and the Pareto plane of output tok/s
// per GPU against tok/s per user, both arms on the same axes.
func sloCharts(f *excelize.File, st *styles, spans []rowSpan, tableRows int) error {
	const blockRows = 17
	for i, sp := range spans {
		sec := sp.entry.Record.SLO
		top := tableRows + 3 + i*blockRows
		ref, _ := excelize.CoordinatesToCellName(1, top)
		head := fmt.Sprintf("#%d %s: SLO %s", sp.entry.ID, title(sp.entry), sec.Objective)
		if h, ok := SLOHeadline(sec); ok {
			head += " (" + h + ")"
		}
		if c := CapacityText(sec.Capacity); c != "" {
			head += "; capacity " + c
		}
		if err := f.SetCellStr(SheetSLO, ref, head); err != nil {
			return err
		}
		if err := f.SetCellStyle(SheetSLO, ref, ref, st.title); err != nil {
			return err
		}
		axis, _, _ := loadAxis(sec)
		cell, _ := excelize.CoordinatesToCellName(1, top+1)
		if err := sloScatter(f, cell, sp, "SLO attainment against "+axis, axis, "attainment", "0%",
			[2][2]int{{sloLoad, sloBaseAtt}, {sloLoad, sloCandAtt}}, ptr(0.0), ptr(1.0)); err != nil {
			return err
		}
		cell, _ = excelize.CoordinatesToCellName(9, top+1)
		perGPU := "output tok/s per GPU"
		if sec.Pareto != nil && !sec.Pareto.PerGPUKnown {
			perGPU = "output tok/s per server (GPUs unknown)"
		}
		if err := sloScatter(f, cell, sp, "Pareto: "+perGPU+" against tok/s per user", "output tok/s per user", perGPU, "0",
			[2][2]int{{sloBaseUser, sloBaseGPU}, {sloCandUser, sloCandGPU}}, ptr(0.0), nil); err != nil {
			return err
		}
	}
	return nil
}

// sloScatter is one scatter chart of two series, baseline then candidate, each {x column,
// y column} (1-based) over the comparison's rows.
func sloScatter(f *excelize.File, cell string, sp rowSpan, chartName, xTitle, yTitle, yFmt string, cols [2][2]int, yMin, yMax *float64) error {
	ch := &excelize.Chart{
		Type:      excelize.Scatter,
		Dimension: excelize.ChartDimension{Width: 480, Height: 300},
		Title:     chartTitle(chartName),
		Legend:    excelize.ChartLegend{Position: "bottom"},
		XAxis:     excelize.ChartAxis{Title: chartTitle(xTitle), MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0"}},
		YAxis:     excelize.ChartAxis{Title: chartTitle(yTitle), MajorGridLines: true, Minimum: yMin, Maximum: yMax, NumFmt: excelize.ChartNumFmt{CustomNumFmt: yFmt}},
	}
	for i, color := range []string{"7F7F7F", "2F75B5"} {
		fill := excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{color}}
		x, y := cols[i][0], cols[i][1]
		ch.Series = append(ch.Series, excelize.ChartSeries{
			Name:       sheetRange(SheetSLO, y, 1, 1), // the header: LibreOffice ignores literal names
			Categories: sheetRange(SheetSLO, x, sp.first, sp.last),
			Values:     sheetRange(SheetSLO, y, sp.first, sp.last),
			Line:       excelize.LineOptions{Type: excelize.LineSolid, Width: 1.75, Fill: fill},
			Marker:     excelize.ChartMarker{Symbol: "circle", Size: 6, Fill: fill},
		})
	}
	return f.AddChart(SheetSLO, cell, ch)
}
