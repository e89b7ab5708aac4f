package ledger

import "strconv"

// checkShape reads a CSV's bytes once, quote-aware, before any record is
// split: a record with a value past MaxColumns, more than maxFields
// fields, or a cell over MaxCellBytes refuses the file, so a header of a
// million columns costs one pass over its bytes, never a million strings.
func checkShape(data []byte, delim byte) error {
	quoted := false
	row, fields, cell, lastFull := 1, 1, 0, 0
	full := false
	end := func() error {
		if full {
			lastFull = fields
		}
		if lastFull > MaxColumns {
			return &ColumnsError{Row: row, Column: columnName(lastFull)}
		}
		return nil
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"':
			quoted = !quoted
			full = true
		case quoted:
			if c == '\n' {
				row++
			}
		case c == delim:
			if err := end(); err != nil {
				return err
			}
			if fields++; fields > maxFields {
				return &FieldsError{Row: row}
			}
			cell, full = 0, false
			continue
		case c == '\n':
			if err := end(); err != nil {
				return err
			}
			row, fields, cell, lastFull, full = row+1, 1, 0, 0, false
			continue
		case c != ' ' && c != '\r' && c != '\t':
			full = true
		}
		if cell++; cell > MaxCellBytes {
			return ErrCellTooLarge
		}
	}
	return end()
}

// FieldsError refuses a CSV record of more fields than a sheet has
// columns, even empty.
type FieldsError struct{ Row int }

func (e *FieldsError) Error() string {
	return "ledger: row " + strconv.Itoa(e.Row) + " has more than 16,384 fields; at most " + strconv.Itoa(MaxColumns) + " columns are read"
}
