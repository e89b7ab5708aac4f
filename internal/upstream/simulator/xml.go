package simulator

import (
	"bufio"
	"encoding/xml"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// XML answers (type=xml) mirror the JSON ones value for value:
//
//   - the root is <Response> with <Success>, <Data> and <ErrorCode>;
//   - a struct is an element whose children are its fields, named by their
//     JSON names (fields JSON leaves out are left out);
//   - a list item is an element named after its type: <PaymentSummaryRow>,
//     <NewsItem>, <Folder>, <NaicsCode>, <AnnualFinancials>...;
//   - a map (the values of AnnualFinancials) becomes one element per entry,
//     named after the value type, with the map key in a key attribute, in key
//     order: <values><DataPoint key="Sales"><Label>..</Label><Value>..</Value>
//     <Text>..</Text></DataPoint>...</values>. Keys are free text, so they go
//     in an attribute, never in an element name;
//   - null is an empty element with xsi:nil="true" (the namespace is declared
//     on <Response>), an empty string an empty element without it;
//   - numbers are written as JSON writes them, booleans as true and false;
//   - characters XML 1.0 cannot carry (control characters other than tab,
//     newline and carriage return) become U+FFFD, as encoding/xml does.
const xsiNamespace = "http://www.w3.org/2001/XMLSchema-instance"

var (
	nilAttr = xml.Attr{Name: xml.Name{Local: "xsi:nil"}, Value: "true"}
	xsiAttr = xml.Attr{Name: xml.Name{Local: "xmlns:xsi"}, Value: xsiNamespace}
)

// writeXMLEnvelope writes the envelope as an XML document.
func writeXMLEnvelope(bw *bufio.Writer, env envelope) error {
	if _, err := bw.WriteString(xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(bw)
	x := xmlWriter{enc: enc}
	x.start("Response", xsiAttr)
	x.leaf("Success", strconv.FormatBool(env.Success))
	if st, ok := env.Data.(stream); ok {
		x.start("Data")
		st.each(func(item any) bool {
			v := reflect.ValueOf(item)
			x.value(xmlTypeName(v.Type()), v)
			return x.err == nil
		})
		x.end("Data")
	} else {
		x.value("Data", reflect.ValueOf(env.Data))
	}
	x.leaf("ErrorCode", env.ErrorCode)
	x.end("Response")
	if x.err != nil {
		return x.err
	}
	if err := enc.Flush(); err != nil {
		return err
	}
	return bw.WriteByte('\n')
}

// xmlWriter writes tokens and keeps the first error, so callers check once.
type xmlWriter struct {
	enc *xml.Encoder
	err error
}

func (x *xmlWriter) token(t xml.Token) {
	if x.err == nil {
		x.err = x.enc.EncodeToken(t)
	}
}

func (x *xmlWriter) start(name string, attrs ...xml.Attr) {
	x.token(xml.StartElement{Name: xml.Name{Local: name}, Attr: attrs})
}

func (x *xmlWriter) end(name string) { x.token(xml.EndElement{Name: xml.Name{Local: name}}) }

func (x *xmlWriter) leaf(name, text string, attrs ...xml.Attr) {
	x.start(name, attrs...)
	if text != "" {
		x.token(xml.CharData(text))
	}
	x.end(name)
}

// value writes v as an element called name.
func (x *xmlWriter) value(name string, v reflect.Value, attrs ...xml.Attr) {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			x.leaf(name, "", append(attrs, nilAttr)...)
			return
		}
		v = v.Elem()
	}
	if !v.IsValid() {
		x.leaf(name, "", append(attrs, nilAttr)...)
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		x.start(name, attrs...)
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			fname, omitEmpty, ok := jsonFieldName(f)
			if !ok || (omitEmpty && v.Field(i).IsZero()) {
				continue
			}
			x.value(fname, v.Field(i))
		}
		x.end(name)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			x.leaf(name, "", append(attrs, nilAttr)...)
			return
		}
		x.start(name, attrs...)
		item := xmlTypeName(v.Type().Elem())
		for i := range v.Len() {
			e := v.Index(i)
			if e.Kind() == reflect.Interface && !e.IsNil() {
				x.value(xmlTypeName(e.Elem().Type()), e)
				continue
			}
			x.value(item, e)
		}
		x.end(name)
	case reflect.Map:
		if v.IsNil() {
			x.leaf(name, "", append(attrs, nilAttr)...)
			return
		}
		x.start(name, attrs...)
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		item := xmlTypeName(v.Type().Elem())
		for _, k := range keys {
			x.value(item, v.MapIndex(k), xml.Attr{Name: xml.Name{Local: "key"}, Value: k.String()})
		}
		x.end(name)
	default:
		x.leaf(name, scalarText(v), attrs...)
	}
}

// scalarText formats a scalar the way encoding/json does.
func scalarText(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return formatFloat(v.Float())
	}
	return ""
}

// formatFloat uses the shortest form, switching to an exponent where JSON does.
func formatFloat(f float64) string {
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.FormatFloat(f, 'e', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// jsonFieldName gives a struct field's JSON name and whether it is omitempty;
// ok is false for fields JSON never writes.
func jsonFieldName(f reflect.StructField) (name string, omitEmpty, ok bool) {
	if !f.IsExported() {
		return "", false, false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, strings.Contains(","+opts+",", ",omitempty,"), true
}

// xmlTypeName names a list item after its Go type without the wire prefix.
func xmlTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	name := strings.TrimPrefix(t.Name(), "wire")
	if name == "" || t.PkgPath() == "" {
		return "Item"
	}
	return name
}
