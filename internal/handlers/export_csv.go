package handlers

import (
	"bytes"
	"errors"
	"io"
	"strconv"
)

// defusedCSV reads the service's CSV export and gives it back with every
// text cell that a spreadsheet would run as a formula (=, +, -, @ or a tab
// first, or a carriage return first inside quotes) marked as text by a
// leading apostrophe, as the workspace's own CSV files are: names and
// cities come from the service's data, and "=HYPERLINK(...)" in one would
// run when the analyst opens the file. Numbers, a negative Z″ among them,
// stay numbers. It looks only at where cells start and copies the bytes
// between in runs, holding at most the first bytes of one cell, so memory
// stays flat and the export keeps the pace of a plain copy; a file without
// formula cells passes byte for byte.
type defusedCSV struct {
	src   io.Reader
	in    []byte
	out   []byte // rewritten, from off on not yet read
	off   int
	err   error // the source's, once it has one
	state csvState
	// pend holds the start of a cell that begins with + or -, until it is
	// known to be a number or not; pendQuoted says it is inside quotes.
	pend       []byte
	pendQuoted bool
}

// csvState is where the rewriter is in the CSV text.
type csvState uint8

const (
	cellStart     csvState = iota // at the start of a cell
	unquoted                      // inside an unquoted cell
	quotedStart                   // just after a cell's opening quote
	quoted                        // inside a quoted cell
	quoteInQuoted                 // after a quote inside quotes: the cell's end, or the first of a doubled quote
	pendingNumber                 // holding pend
	pendingQuote                  // holding pend, after a quote in it: its end, or the first of a doubled quote
	pendingLead                   // holding pend, blanks at a cell's start: what follows them decides
)

// maxNumberBytes bounds pend: a cell longer than this is no number.
const maxNumberBytes = 64

func newDefusedCSV(src io.Reader) *defusedCSV {
	return &defusedCSV{src: src, in: make([]byte, exportBuffer), out: make([]byte, 0, 2*exportBuffer)}
}

func (d *defusedCSV) Read(p []byte) (int, error) {
	for d.off == len(d.out) && d.err == nil {
		d.out, d.off = d.out[:0], 0
		n, err := d.src.Read(d.in)
		d.rewrite(d.in[:n])
		if err != nil {
			d.err = err
			if errors.Is(err, io.EOF) {
				d.finish()
			}
		}
	}
	if d.off < len(d.out) {
		n := copy(p, d.out[d.off:])
		d.off += n
		return n, nil
	}
	return 0, d.err
}

// rewrite passes b on to out, marking formula cells. run is where the
// bytes not yet written start, or -1 while they go to pend instead.
func (d *defusedCSV) rewrite(b []byte) {
	run := 0
	if d.state == pendingNumber || d.state == pendingQuote || d.state == pendingLead {
		run = -1
	}
	mark := func(i int) { // an apostrophe before b[i]
		d.out = append(append(d.out, b[run:i]...), '\'')
		run = i
	}
	hold := func(i int, quotedCell bool) { // b[i] (+ or -) starts pend
		d.out = append(d.out, b[run:i]...)
		d.pend, d.pendQuoted, d.state, run = append(d.pend[:0], b[i]), quotedCell, pendingNumber, -1
	}
	release := func(i int, number bool) { // pend is written; b[i] on is a run
		d.flushPending(number)
		run = i
	}
	for i := 0; i < len(b); {
		switch c := b[i]; d.state {
		case cellStart:
			switch c {
			case '"':
				d.state = quotedStart
			case '=', '@', '\t':
				mark(i)
				d.state = unquoted
			case '+', '-':
				hold(i, false)
			case ' ', 0xC2, 0xEF: // a blank, NBSP or a fullwidth sign may start a formula
				hold(i, false)
				d.state = pendingLead
			case ',', '\n', '\r': // an empty cell or a line's end
			default:
				d.state = unquoted
			}
			i++
		case unquoted:
			for i < len(b) && b[i] != ',' && b[i] != '\n' {
				i++
			}
			if i < len(b) {
				i++
				d.state = cellStart
			}
		case quotedStart:
			switch c {
			case '=', '@', '\t', '\r':
				mark(i)
				d.state = quoted
			case '+', '-':
				hold(i, true)
			case ' ', '\n', 0xC2, 0xEF:
				hold(i, true)
				d.state = pendingLead
			case '"':
				d.state = quoteInQuoted
			default:
				d.state = quoted
			}
			i++
		case quoted:
			j := bytes.IndexByte(b[i:], '"')
			if j < 0 {
				i = len(b)
				break
			}
			i += j + 1
			d.state = quoteInQuoted
		case quoteInQuoted:
			switch c {
			case '"': // a doubled quote: text
				d.state = quoted
			case ',', '\n', '\r':
				d.state = cellStart
			default: // a stray quote, passed on as it came
				d.state = unquoted
			}
			i++
		case pendingNumber:
			switch {
			case d.pendQuoted && c == '"':
				i++
				d.state = pendingQuote
			case !d.pendQuoted && (c == ',' || c == '\n' || c == '\r'):
				release(i, d.isNumber()) // c is read again in the cell's state
			case len(d.pend) >= maxNumberBytes:
				release(i, false)
			default:
				d.pend = append(d.pend, c)
				i++
			}
		case pendingLead:
			switch {
			case len(d.pend) >= maxNumberBytes:
				release(i, true)
			case c == '=' || c == '@' || c == '+' || c == '-' || c == '\t' || c == '\r' && d.pendQuoted:
				release(i, false) // c is read again in the cell's state
			default:
				d.pend = append(d.pend, c)
				switch leadVerdict(d.pend, d.pendQuoted) {
				case leadFormula:
					release(i+1, false)
				case leadText:
					d.pend = d.pend[:len(d.pend)-1]
					release(i, true) // c is read again in the cell's state
					continue
				}
				i++
			}
		case pendingQuote:
			if c == '"' { // a doubled quote: no number
				d.flushPending(false)
				d.out = append(d.out, '"')
				run = i // the second quote goes with the run
				i++
				continue
			}
			// pend was the whole cell: its closing quote, then c.
			d.flushPending(d.isNumber())
			d.out = append(d.out, '"')
			d.state = quoteInQuoted
			run = i
		}
	}
	if run >= 0 {
		d.out = append(d.out, b[run:]...)
	}
}

// isNumber reports whether pend, a whole cell, is a number.
func (d *defusedCSV) isNumber() bool {
	_, err := strconv.ParseFloat(string(d.pend), 64)
	return err == nil
}

// flushPending writes pend, marked unless number, and goes on in the cell
// it began.
func (d *defusedCSV) flushPending(number bool) {
	if !number {
		d.out = append(d.out, '\'')
	}
	d.out = append(d.out, d.pend...)
	d.pend = d.pend[:0]
	d.state = unquoted
	if d.pendQuoted {
		d.state = quoted
	}
}

// finish writes what the end of the file leaves held.
func (d *defusedCSV) finish() {
	switch d.state {
	case pendingNumber:
		d.flushPending(!d.pendQuoted && d.isNumber())
	case pendingQuote:
		d.flushPending(d.isNumber())
		d.out = append(d.out, '"')
	case pendingLead:
		d.flushPending(true)
	}
	d.state = cellStart
}

// What the blanks at a cell's start, and what follows, make of it.
const (
	leadBlank   = iota // blanks so far, or the start of a character still to come
	leadFormula        // a fullwidth =, +, - or @ after them: a spreadsheet may run it
	leadText           // anything else: the last byte starts the cell's text
)

// leadVerdict reads pend, a cell's start: spaces, no-break spaces (and
// line breaks inside quotes) are blanks a spreadsheet skips; a fullwidth
// ＝＋－＠ after them is read as the formula sign it looks like.
func leadVerdict(pend []byte, quoted bool) int {
	for i := 0; i < len(pend); {
		b := pend[i:]
		switch {
		case b[0] == ' ' || quoted && b[0] == '\n':
			i++
		case b[0] == 0xC2 && len(b) == 1, b[0] == 0xEF && (len(b) == 1 || len(b) == 2 && b[1] == 0xBC):
			return leadBlank
		case b[0] == 0xC2 && b[1] == 0xA0:
			i += 2
		case b[0] == 0xEF && b[1] == 0xBC && (b[2] == 0x9D || b[2] == 0x8B || b[2] == 0x8D || b[2] == 0xA0):
			return leadFormula
		default:
			return leadText
		}
	}
	return leadBlank
}
