package gui

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/chart"
)

// demoCDF is the compare view's TTFT CDF of baseline vs established, drawn.
func demoCDF(t *testing.T) (*App, *chartView) {
	t.Helper()
	u := newDemoApp(t)
	ui(func() { u.showView(viewCompare) })
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "established") })
	shown(t, u, "baseline", "established")
	c := u.compare.charts["ttft_cdf"]
	eventually(t, "the TTFT CDF drawn", func() bool { return c.plot != nil && c.img.Image != nil && c.Size().Width > 100 })
	return u, c
}

// drawnImage is the image a chart shows, and its layout (chart.Layout of what it shows).
func drawnImage(t *testing.T, c *chartView) (image.Image, chart.Laid) {
	t.Helper()
	img := c.img.Image
	l, err := chart.Layout(c.shown(), img.Bounds().Dx(), img.Bounds().Dy())
	if err != nil {
		t.Fatal(err)
	}
	return img, l
}

// inkOf counts the pixels of img inside r close to colour col.
func inkOf(img image.Image, r chart.Rect, col color.Color) int {
	cr, cg, cb, _ := col.RGBA()
	near := func(a, b uint32) bool { return a-b < 0x1800 || b-a < 0x1800 }
	n := 0
	for y := int(r.Y0); y < int(r.Y1); y++ {
		for x := int(r.X0); x < int(r.X1); x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if near(pr, cr) && near(pg, cg) && near(pb, cb) {
				n++
			}
		}
	}
	return n
}

// centre is the middle of r in the widget's units.
func centre(c *chartView, r chart.Rect) fyne.Position {
	s := c.scale()
	return fyne.NewPos(float32((r.X0+r.X1)/2)/s, float32((r.Y0+r.Y1)/2)/s)
}

// A click on a legend entry hides its series: the image is drawn again without its colour in
// the data area, its readout goes, the entry stays (to click it back); a second click shows it.
func TestLegendClickHidesASeries(t *testing.T) {
	_, c := demoCDF(t)
	var entry chart.LegendEntry
	var before int
	ui(func() {
		img, l := drawnImage(t, c)
		if len(l.Legend) != 2 || !strings.HasPrefix(l.Legend[0].Text, "baseline") {
			t.Fatalf("legend %+v", l.Legend)
		}
		entry, before = l.Legend[0], inkOf(img, l.Data, chart.BaselineColor)
		c.Tapped(&fyne.PointEvent{Position: centre(c, entry.Box)})
	})
	if before < 100 {
		t.Fatalf("%d baseline pixels before hiding", before)
	}
	eventually(t, "the baseline curve gone", func() bool {
		img, l := drawnImage(t, c)
		return inkOf(img, l.Data, chart.BaselineColor) < before/20 && len(l.Legend) == 2 && l.Legend[0].Hidden
	})
	ui(func() {
		p := c.plot
		if text := hover(t, c, p.X.Min+0.6*(p.X.Max-p.X.Min), 0.5); strings.Contains(text, "baseline p") || !strings.Contains(text, "established p") {
			t.Errorf("readout with the baseline hidden: %q", text)
		}
		c.Tapped(&fyne.PointEvent{Position: centre(c, entry.Box)})
	})
	eventually(t, "the baseline curve back", func() bool {
		img, l := drawnImage(t, c)
		return inkOf(img, l.Data, chart.BaselineColor) > before*9/10 && !l.Legend[0].Hidden
	})
}

// A click on a chart opens it large over the window, its readout there too; the wheel zooms
// at the pointer, a drag pans, 0 resets and Escape closes it.
func TestChartOpensLargeZoomsAndPans(t *testing.T) {
	u, c := demoCDF(t)
	var small int
	ui(func() {
		img, l := drawnImage(t, c)
		small = img.Bounds().Dx()
		c.Tapped(&fyne.PointEvent{Position: centre(c, l.Data)})
	})
	eventually(t, "the chart open large", func() bool { return u.popped != nil && u.popped.img.Image != nil })
	z := get(func() *zoomChart { return u.popped })
	ui(func() {
		top := topDialog(u)
		big := 0
		for _, im := range under[*canvas.Image](top, true) {
			if im.Image != nil {
				big = max(big, im.Image.Bounds().Dx())
			}
		}
		if big < small*2 {
			t.Errorf("the pop-out's chart is %d px wide, the chart in place %d", big, small)
		}
		if text := drawnText(top); !strings.Contains(text, "Time to first token (prefill)") || !strings.Contains(text, "Save chart…") || !strings.Contains(text, "Copy image") {
			t.Errorf("the pop-out draws: %s", text)
		}
	})
	home := get(func() [4]float64 { return *z.zoom })
	var at fyne.Position
	ui(func() {
		_, l := drawnImage(t, z.chartView)
		at = centre(z.chartView, l.Data)
		z.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: at}})
		if text := drawnText(z); !strings.Contains(text, " · baseline p") {
			t.Errorf("no readout in the pop-out: %q", text)
		}
		z.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: at}, Scrolled: fyne.NewDelta(0, 2*wheelNotch)})
	})
	zoomed := get(func() [4]float64 { return *z.zoom })
	if span, was := zoomed[1]-zoomed[0], home[1]-home[0]; span > 0.7*was || zoomed[0] <= home[0] || zoomed[1] >= home[1] {
		t.Errorf("two notches zoomed x %v..%v to %v..%v", home[0], home[1], zoomed[0], zoomed[1])
	}
	// What is drawn follows: the left edge of the data area now reads a larger x.
	eventually(t, "the zoomed chart drawn", func() bool {
		img, l := drawnImage(t, z.chartView)
		x, _, ok := chart.Readout(z.shown(), img.Bounds().Dx(), img.Bounds().Dy(), l.Data.X0+1, (l.Data.Y0+l.Data.Y1)/2)
		return ok && x > zoomed[0]-0.01*(zoomed[1]-zoomed[0]) && l.Data.X1-l.Data.X0 > 0
	})
	ui(func() {
		z.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: at}, Dragged: fyne.NewDelta(80, 0)})
	})
	panned := get(func() [4]float64 { return *z.zoom })
	if d := panned[0] - zoomed[0]; d >= 0 || abs(panned[1]-panned[0]-(zoomed[1]-zoomed[0])) > 1e-9 {
		t.Errorf("a drag right moved x %v..%v to %v..%v", zoomed[0], zoomed[1], panned[0], panned[1])
	}
	ui(func() { u.onTypedKey(&fyne.KeyEvent{Name: fyne.Key0}) })
	if got := get(func() [4]float64 { return *z.zoom }); got != home {
		t.Errorf("0 reset the axes to %v, not %v", got, home)
	}
	ui(func() { u.onTypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	eventually(t, "the pop-out closed", func() bool { return u.popped == nil && !shownText(u, "Copy image") })
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// "Save chart…" writes the chart as a PNG the size of the exports'; into a folder that takes
// no file it says so in words and opens the dialog again as it was, as every export does.
func TestSaveChart(t *testing.T) {
	u, c := demoCDF(t)
	dir := t.TempDir()
	ui(func() { u.saveChartForm(c, dir, "") })
	ui(func() {
		name, ok := find(topDialog(u), func(e *widget.Entry) bool { return e.Text == "" })
		if !ok {
			t.Fatal("no name field")
		}
		name.SetText("ttft.png")
	})
	tapButton(t, u, "Save")
	path := filepath.Join(dir, "ttft.png")
	eventually(t, "the chart saved", func() bool { _, err := os.Stat(path); return err == nil })
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != int(savedChartSize.Width) || b.Dy() != int(savedChartSize.Height) {
		t.Errorf("saved chart %v", b)
	}
	if got := get(func() string { return u.chartFileName(c) }); got != "benchlens-baseline-vs-established-ttft_cdf.png" {
		t.Errorf("default name %q", got)
	}

	if runtime.GOOS != "linux" {
		return
	}
	ui(func() { u.saveChartForm(c, "/proc/sys", "ttft.png") })
	tapButton(t, u, "Save")
	readOnlyThenAgain(t, u, "ttft.png")
}
