package simulator

import (
	"bufio"
	"encoding/csv"
	"encoding/xml"
	"net/http"
	"unicode/utf8"
)

// rowWriter writes a download in one format, one row at a time.
type rowWriter interface {
	begin() error
	row(vals []cell) error
	end() error
	flush() error
}

func newRowWriter(format string, bw *bufio.Writer, cols []string) rowWriter {
	switch format {
	case "XML":
		return &xmlRows{bw: bw, cols: cols}
	case "JSON":
		return &jsonRows{bw: bw, cols: cols}
	}
	return &csvRows{cw: csv.NewWriter(bw), cols: cols, rec: make([]string, len(cols))}
}

// csvRows writes CSV through encoding/csv, which quotes what needs quoting.
type csvRows struct {
	cw   *csv.Writer
	cols []string
	rec  []string
}

func (c *csvRows) begin() error { return c.cw.Write(c.cols) }

func (c *csvRows) row(vals []cell) error {
	for i, v := range vals {
		c.rec[i] = v.text
	}
	return c.cw.Write(c.rec)
}

func (c *csvRows) end() error { return nil }

func (c *csvRows) flush() error {
	c.cw.Flush()
	return c.cw.Error()
}

// xmlRows writes <Portfolio><Business>...</Business>...</Portfolio>; text
// goes through xml.EscapeText, so the document is well-formed whatever the
// data holds.
type xmlRows struct {
	bw   *bufio.Writer
	cols []string
}

func (x *xmlRows) begin() error {
	_, err := x.bw.WriteString(xml.Header + `<Portfolio xmlns:xsi="` + xsiNamespace + `">` + "\n")
	return err
}

func (x *xmlRows) row(vals []cell) error {
	x.bw.WriteString("<Business>")
	for i, v := range vals {
		name := x.cols[i]
		if v.kind == cellNull {
			x.bw.WriteString("<" + name + ` xsi:nil="true"/>`)
			continue
		}
		x.bw.WriteString("<" + name + ">")
		if err := xml.EscapeText(x.bw, []byte(v.text)); err != nil {
			return err
		}
		x.bw.WriteString("</" + name + ">")
	}
	_, err := x.bw.WriteString("</Business>\n")
	return err
}

func (x *xmlRows) end() error {
	_, err := x.bw.WriteString("</Portfolio>\n")
	return err
}

func (x *xmlRows) flush() error { return nil }

// jsonRows writes an array of objects, one element at a time.
type jsonRows struct {
	bw   *bufio.Writer
	cols []string
	n    int
	buf  []byte
}

func (j *jsonRows) begin() error { return j.bw.WriteByte('[') }

func (j *jsonRows) row(vals []cell) error {
	b := j.buf[:0]
	if j.n > 0 {
		b = append(b, ',')
	}
	j.n++
	b = append(b, "\n{"...)
	for i, v := range vals {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, j.cols[i])
		b = append(b, ':')
		switch v.kind {
		case cellNull:
			b = append(b, "null"...)
		case cellString:
			b = appendJSONString(b, v.text)
		default:
			b = append(b, v.text...)
		}
	}
	b = append(b, '}')
	j.buf = b
	_, err := j.bw.Write(b)
	return err
}

func (j *jsonRows) end() error {
	_, err := j.bw.WriteString("\n]\n")
	return err
}

func (j *jsonRows) flush() error { return nil }

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else if r == '\u2028' || r == '\u2029' {
			// Valid JSON, but not valid JavaScript before ES2019.
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// abortWriter passes the first left bytes on, flushes them to the client and
// then aborts the connection mid-body, as a dropped link would. The client
// sees an unexpected EOF, never a clean end.
type abortWriter struct {
	w    http.ResponseWriter
	left int64
}

func (a *abortWriter) Write(p []byte) (int, error) {
	if int64(len(p)) < a.left {
		a.left -= int64(len(p))
		return a.w.Write(p)
	}
	a.w.Write(p[:a.left])
	a.left = 0
	if f, ok := a.w.(http.Flusher); ok {
		f.Flush()
	}
	panic(http.ErrAbortHandler)
}
