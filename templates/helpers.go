// Package templates holds the dashboard's templ components: the layout, one
// file per page, and partials. Components only loop and branch over the view
// models of internal/views; they do no I/O.
package templates

import (
	"context"
	"io"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/a-h/templ"

	"creditdash/internal/views"
)

func itoa(n int) string { return strconv.Itoa(n) }

// text is a table cell's text, for tables of hundreds of cells: @text(s)
// writes s escaped, as { s } does, without the copy templ makes of every
// interpolated string on the way (its JoinStringErrs goes through
// fmt.Sprint). Called as @text(s), Render is called on the value itself,
// so nothing is allocated unless s needs escaping. Unlike { s } on a line
// of its own, @text(s) writes no space after it: use it where the text
// fills its element, as the tables' cells do.
type text string

// Render writes the text, escaped.
func (t text) Render(_ context.Context, w io.Writer) error {
	_, err := io.WriteString(w, templ.EscapeString(string(t)))
	return err
}

// cellClass is a table cell's class attribute, for tables of hundreds of
// cells: templ's class={ } builds two maps per element (a sixth of all the
// bytes a busy dashboard allocated, by a heap profile under make loadtest),
// while a one-item ordered list writes the same attribute without them.
// Each class's list is made once and shared, since templ only reads it:
// the lists were still 2.5% of the bytes allocated under that load.
func cellClass(class string) templ.OrderedAttributes {
	if class == "" {
		return nil
	}
	if a, ok := cellClasses.Load(class); ok {
		return a.(templ.OrderedAttributes)
	}
	a := templ.OrderedAttributes{{Key: "class", Value: class}}
	if cellClassCount.Add(1) <= maxCellClasses {
		cellClasses.Store(class, a)
	}
	return a
}

// cellClasses are the shared lists of cellClass, by class. The classes come
// from the views' code (zones, numbers, missing values), a few dozen;
// maxCellClasses bounds the map should a class ever carry data.
var (
	cellClasses    sync.Map
	cellClassCount atomic.Int64
)

const maxCellClasses = 256

// jsonScript is templ.JSONScript for JSON encoded already, so that a
// chart's options are not encoded a second time while the page renders:
// an inert script element holding data that encoding/json wrote (it
// escapes <, > and &, so nothing in it can close the element).
func jsonScript(id string, encoded []byte) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		if _, err := io.WriteString(w, `<script id="`+templ.EscapeString(id)+`" type="application/json">`); err != nil {
			return err
		}
		if _, err := w.Write(encoded); err != nil {
			return err
		}
		_, err := io.WriteString(w, "</script>")
		return err
	})
}

// problemRole announces failures at once; a section left unloaded on
// purpose is only status.
func problemRole(p *views.Problem) string {
	if p.Deferred {
		return "status"
	}
	return "alert"
}

// sortState is a column heading's aria-sort: the sorted column is in the
// table's own order (worst first), the others none.
func sortState(sorted bool) string {
	if sorted {
		return "other"
	}
	return "none"
}
