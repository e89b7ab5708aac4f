package store

import (
	"slices"
	"strconv"
	"strings"
)

// maxIDList is how many business ids one query's IN list names: far below
// both engines' bound on parameters.
const maxIDList = 500

// inList is the IN list of ids for a query whose own parameters (lead)
// come first, and the arguments of both. The list is padded with its last
// id to a power of four (or maxIDList), so a query takes one of six shapes
// and SQLite's kept statements (maxPrepared) are not spent on every
// length. ids holds at most maxIDList and at least one.
func inList(lead []any, ids []int32) (string, []any) {
	n := 1
	for n < len(ids) {
		n *= 4
	}
	n = min(n, maxIDList)
	args := slices.Grow(slices.Clone(lead), n)
	var in strings.Builder
	for i := range n {
		if i > 0 {
			in.WriteString(", ")
		}
		in.WriteString("$" + strconv.Itoa(len(lead)+i+1))
		args = append(args, int64(ids[min(i, len(ids)-1)]))
	}
	return in.String(), args
}
