package upstream

import (
	"reflect"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Decoded arrays are read into a reused scratch slice of their type and
// then copied into one of exactly their length. Grown by doubling, a
// slice of rows allocated about twice its final size on the way, and the
// copy kept in the cache held up to twice its rows' memory for as long
// as it was kept: under the 200 analysts, the largest share of both the
// bytes allocated and the heap live.
var scratches sync.Map // reflect.Type of the slice -> *sync.Pool of pointers to it

// keptScratch is the largest scratch slice, in bytes, kept between
// answers, as for the answers' own buffers: a rare huge answer's is left
// to the collector.
const keptScratch = keptBodyBuffer

// Rows is a slice of an answer's rows inside another answer (a
// portfolio's businesses and each one's months, a peer analysis's
// ratios), decoded to its exact length as a whole answer's rows are.
type Rows[E any] []E

// UnmarshalJSONFrom decodes an array to its exact length; null and
// anything else are read as for a plain slice.
func (r *Rows[E]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() != '[' {
		return jsonv2.UnmarshalDecode(dec, (*[]E)(r))
	}
	return decodeExact(dec, reflect.ValueOf(r).Elem())
}

// decodeExact decodes the JSON array at dec into v, a settable slice,
// leaving it no spare capacity. On an error v is left as it was.
func decodeExact(dec *jsontext.Decoder, v reflect.Value) error {
	t := v.Type()
	pool, ok := scratches.Load(t)
	if !ok {
		// The scratch is a plain slice of the rows, so a Rows is not
		// read through its own method again.
		plain := reflect.SliceOf(t.Elem())
		pool, _ = scratches.LoadOrStore(t, &sync.Pool{New: func() any { return reflect.New(plain).Interface() }})
	}
	p := pool.(*sync.Pool).Get()
	rows := reflect.ValueOf(p).Elem()
	err := jsonv2.UnmarshalDecode(dec, p)
	if err == nil {
		n := rows.Len()
		exact := reflect.MakeSlice(t, n, n)
		reflect.Copy(exact, rows)
		v.Set(exact)
	}
	// Cleared so the pool holds no strings or rows of an answer; the
	// decoder zeroes each element it reuses anyway.
	rows.Clear()
	if rows.Cap()*int(t.Elem().Size()) <= keptScratch {
		rows.SetLen(0)
		pool.(*sync.Pool).Put(p)
	}
	return err
}
