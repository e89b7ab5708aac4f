package upstream

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/go-json-experiment/json/jsontext"
)

// Num is a number the service may send as null: OK is false then. It is a
// value, not a pointer: a portfolio's histories hold tens of thousands of
// scores, and as pointers each was an allocation of its own that the
// collector followed on every cycle while the copy was kept.
type Num[T int | float64] struct {
	V  T
	OK bool
}

// Some is the number v, present.
func Some[T int | float64](v T) Num[T] { return Num[T]{V: v, OK: true} }

// Get is the number and whether the service sent one.
func (n Num[T]) Get() (T, bool) { return n.V, n.OK }

// UnmarshalJSONFrom reads a JSON number or null, as the answers are
// decoded (unmarshalAnswer), without allocating.
func (n *Num[T]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	switch tok.Kind() {
	case 'n':
		*n = Num[T]{}
		return nil
	case '0':
	default:
		return fmt.Errorf("upstream: a %v where a number or null belongs", tok.Kind())
	}
	f := tok.Float()
	var v T
	switch p := any(&v).(type) {
	case *int:
		if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return fmt.Errorf("upstream: %v is not a whole number", f)
		}
		*p = int(f)
	case *float64:
		*p = f
	}
	*n = Some(v)
	return nil
}

// MarshalJSON writes the number or null, for the dated copies and
// decisions kept as JSON (encoding/json).
func (n Num[T]) MarshalJSON() ([]byte, error) {
	if !n.OK {
		return []byte("null"), nil
	}
	return json.Marshal(n.V)
}

// UnmarshalJSON reads a number or null written by MarshalJSON.
func (n *Num[T]) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*n = Num[T]{}
		return nil
	}
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*n = Some(v)
	return nil
}
