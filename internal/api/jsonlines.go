package api

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"mime"
	"strconv"
	"strings"

	"creditdash/internal/ledger"
)

// jsonLinesTypes are the media types of a ledger pushed as JSON lines.
var jsonLinesTypes = []string{"application/jsonl", "application/x-ndjson", "application/x-jsonlines"}

// jsonLines says the body is JSON lines by its Content-Type; anything else
// is read as a file, by its content, as the import page reads uploads.
func jsonLines(contentType string) bool {
	t, _, err := mime.ParseMediaType(contentType)
	return err == nil && contains(jsonLinesTypes, strings.ToLower(t))
}

// maxLineErrors is how many bad JSON lines are named before giving up.
const maxLineErrors = 20

// linesToCSV turns JSON lines, one account (or open item) an object keyed
// by the import's field names (ledger.Fields), into the CSV whose header
// is those names, for ledger.Read and ledger.Parse to read as they read
// any file: the same recognition, bounds and refusals. rows gives the JSON
// line number of each CSV data row. A line that is not such an object
// refuses the whole body, naming the line.
func linesToCSV(data []byte) (out []byte, rows []int, errs []FieldError) {
	index := make(map[string]int, len(ledger.Fields))
	for i, f := range ledger.Fields {
		index[string(f)] = i
	}
	used := make([]bool, len(ledger.Fields))
	var records [][]string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), ledger.MaxFileBytes)
	n := 0
	bad := func(detail string) {
		errs = append(errs, FieldError{Field: "line " + strconv.Itoa(n), Detail: detail})
	}
	for sc.Scan() && len(errs) < maxLineErrors {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if len(records) >= ledger.MaxRows {
			bad(fmt.Sprintf("more than %d lines; split the ledger", ledger.MaxRows))
			break
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(line, &obj); err != nil {
			bad("not a JSON object")
			continue
		}
		rec := make([]string, len(ledger.Fields))
		for k, raw := range obj {
			i, ok := index[k]
			if !ok {
				bad(fmt.Sprintf("%q is not a field of the import (%s)", clipText(k), fieldNames()))
				continue
			}
			v, ok := cellText(raw)
			if !ok {
				bad(fmt.Sprintf("%s is not a string, a number or null", k))
				continue
			}
			rec[i], used[i] = v, used[i] || v != ""
		}
		records = append(records, rec)
		rows = append(rows, n)
	}
	if err := sc.Err(); err != nil {
		bad("a line is longer than the body may be")
	}
	if errs != nil {
		return nil, nil, errs
	}
	if len(records) == 0 {
		return nil, nil, []FieldError{{Field: "body", Detail: "no JSON line holds an account"}}
	}
	var cols []int
	var header []string
	for i, u := range used {
		if u {
			cols = append(cols, i)
			header = append(header, string(ledger.Fields[i]))
		}
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(header)
	cells := make([]string, len(cols))
	for _, rec := range records {
		for j, i := range cols {
			cells[j] = rec[i]
		}
		_ = w.Write(cells)
	}
	w.Flush()
	return buf.Bytes(), rows, nil
}

// cellText is a JSON value as the file's cell: a string as it is, a number
// as written (an exponent written out), null as empty.
func cellText(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "", true
	case raw[0] == '"':
		var s string
		return s, json.Unmarshal(raw, &s) == nil
	}
	var num json.Number
	if json.Unmarshal(raw, &num) != nil {
		return "", false
	}
	if !strings.ContainsAny(string(num), "eE") {
		return string(num), true
	}
	f, err := num.Float64()
	return strconv.FormatFloat(f, 'f', -1, 64), err == nil
}

// fieldNames lists the import's fields for a refusal.
func fieldNames() string {
	names := make([]string, len(ledger.Fields))
	for i, f := range ledger.Fields {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// clipText shortens text quoted back in a refusal.
func clipText(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return s
}
