package report

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/flate"
	"github.com/xuri/excelize/v2"
)

// A table's rows are written as worksheet XML here, cell by cell as excelize's StreamWriter
// writes them (the same bytes), and spliced into its sheet when the workbook is zipped:
// excelize's per-cell work (a cell name, a style lookup, a value switch and an escape per
// cell) was most of an export of 100 comparisons. excelize still writes each sheet's
// header row, column widths, panes and autofilter; a value this writer does not write
// exactly as excelize would (a time, a text with an _xHHHH_ escape) leaves the whole table
// to excelize.

// rowsAsXML: writeTable writes its rows with rowsXML (off only to compare with excelize's).
var rowsAsXML = true

// rowsXML writes the table's data rows (from row 2) as excelize's StreamWriter would, or
// reports false when a value needs excelize.
func rowsXML(st *styles, t *table) ([]byte, bool) {
	refs := make([]string, len(t.cols)) // column letters
	for i := range refs {
		refs[i], _ = excelize.ColumnNumberToName(i + 1)
	}
	b := make([]byte, 0, 64*len(t.rows)*max(1, len(t.cols)))
	var num [20]byte
	for r, row := range t.rows {
		n := strconv.AppendInt(num[:0], int64(r+2), 10)
		b = append(b, `<row r="`...)
		b = append(b, n...)
		b = append(b, `">`...)
		for i, v := range row[:min(len(row), len(t.cols))] {
			v, s := st.cellOf(t.cols[i], v)
			if v == nil && s == 0 {
				continue
			}
			b = append(b, `<c r="`...)
			b = append(b, refs[i]...)
			b = append(b, n...)
			b = append(b, '"')
			if s != 0 {
				b = append(b, ` s="`...)
				b = strconv.AppendInt(b, int64(s), 10)
				b = append(b, '"')
			}
			switch x := v.(type) {
			case nil:
				b = append(b, `>`...)
			case string:
				if !appendInlineStr(&b, x) {
					return nil, false
				}
			case float64:
				if math.IsNaN(x) || math.IsInf(x, 0) {
					appendInlineStr(&b, fmt.Sprint(x))
					break
				}
				b = append(b, `><v>`...)
				b = appendCellFloat(b, x)
				b = append(b, `</v>`...)
			case int:
				b = append(b, `><v>`...)
				b = strconv.AppendInt(b, int64(x), 10)
				b = append(b, `</v>`...)
			case int64:
				b = append(b, `><v>`...)
				b = strconv.AppendInt(b, x, 10)
				b = append(b, `</v>`...)
			case bool:
				b = append(b, ` t="b"><v>`...)
				if x {
					b = append(b, '1')
				} else {
					b = append(b, '0')
				}
				b = append(b, `</v>`...)
			default: // time.Time and the rest: excelize's
				return nil, false
			}
			b = append(b, `</c>`...)
		}
		b = append(b, `</row>`...)
	}
	return b, true
}

// appendInlineStr writes a text cell's type and value as excelize does: XML-escaped with new
// lines kept, xml:space="preserve" when it starts or ends with white space. A text holding
// "_x" (which excelize escapes as _xHHHH_ when it reads as one) is left to excelize.
func appendInlineStr(b *[]byte, s string) bool {
	if strings.Contains(s, "_x") {
		return false
	}
	*b = append(*b, ` t="inlineStr"><is><t`...)
	if s != "" {
		switch first, last := s[0], s[len(s)-1]; {
		case first == 9 || first == 10 || first == 13 || first == 32, last == 9 || last == 10 || last == 13 || last == 32:
			*b = append(*b, ` xml:space="preserve"`...)
		}
	}
	*b = append(*b, '>')
	*b = appendEscaped(*b, s)
	*b = append(*b, `</t></is>`...)
	return true
}

// appendEscaped is xml.EscapeText with new lines kept, as excelize writes a text: ASCII here,
// anything else through encoding/xml.
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		var esc string
		switch c := s[i]; c {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\r':
			esc = "&#xD;"
		case '\n':
			esc = "\n"
		default:
			if c < 0x20 || c >= 0x80 {
				var e strings.Builder
				_ = xml.EscapeText(&e, []byte(s[i:]))
				return append(b, strings.ReplaceAll(e.String(), "&#xA;", "\n")...)
			}
			b = append(b, c)
			continue
		}
		b = append(b, esc...)
	}
	return b
}

// appendCellFloat is excelize's formatCellFloat (cell.go) for a finite number at automatic
// precision: the shortest decimal, cut to Excel's 15 significant digits.
func appendCellFloat(b []byte, value float64) []byte {
	start := len(b)
	b = strconv.AppendFloat(b, value, 'f', -1, 64)
	if math.Abs(value) == math.MaxFloat64 {
		return b
	}
	const maxPrec = 15
	str := b[start:]
	decimal := bytes.IndexByte(str, '.')
	significant := 0
	for idx := range str {
		if str[idx] < '0' || str[idx] > '9' || significant == 0 && str[idx] == '0' {
			continue
		}
		significant++
		if significant <= maxPrec {
			continue
		}
		if decimal >= 0 && idx > decimal {
			return bytes.TrimSuffix(b[:start+idx], []byte("."))
		}
		if decimal < 0 {
			decimal = len(str)
		}
		for ; idx < decimal; idx++ {
			str[idx] = '0'
		}
		return b[:start+decimal]
	}
	return b
}

// sheetPart is the zip part excelize writes a sheet of a new workbook to.
func sheetPart(f *excelize.File, sheet string) (string, error) {
	for id, name := range f.GetSheetMap() {
		if name == sheet {
			return "xl/worksheets/sheet" + strconv.Itoa(id) + ".xml", nil
		}
	}
	return "", fmt.Errorf("no sheet %q", sheet)
}

// zipper is the workbook's zip writer: klauspost's deflate at its fastest level, each
// compressor reused (a new one allocates and clears a megabyte, once per part), and the rows
// of rowsXML spliced into their sheets' parts before the parts' </sheetData>.
type zipper struct {
	zw    *zip.Writer
	rows  map[string][]byte // part name → its rows
	name  string            // the part being spliced
	part  bytes.Buffer
	inner io.Writer
}

var flatePool sync.Pool

// pooledFlate returns its compressor to the pool when closed.
type pooledFlate struct{ *flate.Writer }

func (p pooledFlate) Close() error {
	err := p.Writer.Close()
	flatePool.Put(p.Writer)
	return err
}

func newZipper(w io.Writer, rows map[string][]byte) *zipper {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		if fw, ok := flatePool.Get().(*flate.Writer); ok {
			fw.Reset(out)
			return pooledFlate{fw}, nil
		}
		fw, err := flate.NewWriter(out, flate.BestSpeed)
		return pooledFlate{fw}, err
	})
	return &zipper{zw: zw, rows: rows}
}

// Create starts a part; a sheet with spliced rows is held until the next part or Close.
func (z *zipper) Create(name string) (io.Writer, error) {
	if err := z.splice(); err != nil {
		return nil, err
	}
	w, err := z.zw.Create(name)
	if err != nil {
		return nil, err
	}
	if _, ok := z.rows[name]; ok {
		z.name, z.inner = name, w
		z.part.Reset()
		return &z.part, nil
	}
	return w, nil
}

// splice writes the held sheet with its rows.
func (z *zipper) splice() error {
	if z.name == "" {
		return nil
	}
	name, rows := z.name, z.rows[z.name]
	z.name = ""
	delete(z.rows, name)
	data := z.part.Bytes()
	at := bytes.LastIndex(data, []byte("</sheetData>"))
	if at < 0 {
		return fmt.Errorf("xlsx: %s has no </sheetData> to write its rows before", name)
	}
	for _, p := range [][]byte{data[:at], rows, data[at:]} {
		if _, err := z.inner.Write(p); err != nil {
			return err
		}
	}
	return nil
}

func (z *zipper) AddFS(fsys fs.FS) error {
	if err := z.splice(); err != nil {
		return err
	}
	return z.zw.AddFS(fsys)
}

func (z *zipper) Close() error {
	err := z.splice()
	for name := range z.rows {
		err = fmt.Errorf("xlsx: sheet part %s was never written", name)
	}
	if cerr := z.zw.Close(); err == nil {
		err = cerr
	}
	return err
}
