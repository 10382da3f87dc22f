package jsonx

// Number reads the number at the start of data exactly as Decode would (an int64 for integer
// literals that fit, else a float64; Python's NaN and Infinity too) and says how many bytes it
// took: readers that scan their own objects, such as the trace reader's event scanner, get the
// same numbers without boxing each one.
func Number(data []byte) (n int64, f float64, isInt bool, size int, err error) {
	d := Decoder{data: data}
	if len(data) == 0 || !isNumberStart(data[0]) {
		return 0, 0, false, 0, d.errorf("invalid number")
	}
	n, f, isInt, err = d.scanNumber()
	return n, f, isInt, d.pos, err
}

// String reads the string literal at the start of data (at its opening quote) exactly as
// Decode would: escapes resolved, invalid UTF-8 replaced. It says how many bytes it took.
func String(data []byte) (s string, size int, err error) {
	d := Decoder{data: data}
	if len(data) == 0 || data[0] != '"' {
		return "", 0, d.errorf("expected a string")
	}
	s, err = d.str()
	return s, d.pos, err
}
