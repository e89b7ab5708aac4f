package upstream

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// maxExternalIDLen bounds CustomerId and SupplierId, which the service treats
// as opaque text; anything longer is a typo or an attack, not an id.
const maxExternalIDLen = 64

// RefKind says which identifier a BusinessRef carries.
type RefKind int

// The three ways of naming a business.
const (
	RefNone RefKind = iota
	RefID
	RefCustomer
	RefSupplier
)

// BusinessRef names a business by exactly one of its service id, a
// CustomerId or a SupplierId. The zero value names nothing and is refused.
type BusinessRef struct {
	kind RefKind
	id   int32
	ext  string
}

// ByID names a business by the service's id.
func ByID(id int32) BusinessRef { return BusinessRef{kind: RefID, id: id} }

// ByCustomerID names a business by the caller's CustomerId (trade providers).
func ByCustomerID(id string) BusinessRef { return BusinessRef{kind: RefCustomer, ext: id} }

// BySupplierID names a business by the caller's SupplierId (supplier lists).
func BySupplierID(id string) BusinessRef { return BusinessRef{kind: RefSupplier, ext: id} }

// ParseID reads a business id as typed by a person or found in a URL.
func ParseID(s string) (BusinessRef, error) {
	n, err := strconv.ParseInt(s, 10, 32)
	// Only the canonical spelling: "+1001" and "01001" would give one
	// business several addresses.
	if err != nil || n <= 0 || strconv.FormatInt(n, 10) != s {
		return BusinessRef{}, fmt.Errorf("%w: %q is not a business id (a positive whole number)", ErrInvalidReference, s)
	}
	return ByID(int32(n)), nil
}

// Kind says which identifier the reference carries.
func (r BusinessRef) Kind() RefKind { return r.kind }

// ID returns the service id, or 0 when the reference is not by id.
func (r BusinessRef) ID() int32 { return r.id }

// External returns the CustomerId or SupplierId, or "" for an id reference.
func (r BusinessRef) External() string { return r.ext }

// String is a short human form, e.g. "id 1001" or "SupplierId S-1001".
func (r BusinessRef) String() string {
	switch r.kind {
	case RefID:
		return "id " + strconv.FormatInt(int64(r.id), 10)
	case RefCustomer:
		return "CustomerId " + r.ext
	case RefSupplier:
		return "SupplierId " + r.ext
	default:
		return "no business"
	}
}

// Validate refuses references the service could not resolve, so that no
// request is spent on them.
func (r BusinessRef) Validate() error {
	switch r.kind {
	case RefID:
		if r.id <= 0 {
			return fmt.Errorf("%w: id must be positive", ErrInvalidReference)
		}
		return nil
	case RefCustomer, RefSupplier:
		return validateExternalID(r.ext)
	default:
		return fmt.Errorf("%w: no identifier given", ErrInvalidReference)
	}
}

func validateExternalID(s string) error {
	if s == "" {
		return fmt.Errorf("%w: empty identifier", ErrInvalidReference)
	}
	if len(s) > maxExternalIDLen {
		return fmt.Errorf("%w: identifier longer than %d characters", ErrInvalidReference, maxExternalIDLen)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: identifier is not valid text", ErrInvalidReference)
	}
	for _, c := range s {
		if unicode.IsControl(c) || unicode.IsSpace(c) {
			return fmt.Errorf("%w: identifier contains spaces or control characters", ErrInvalidReference)
		}
	}
	return nil
}

// addTo sets the one identifying parameter on q.
func (r BusinessRef) addTo(q *query) {
	switch r.kind {
	case RefID:
		q.Set(paramID, strconv.FormatInt(int64(r.id), 10))
	case RefCustomer:
		q.Set(paramCustomerID, r.ext)
	case RefSupplier:
		q.Set(paramSupplierID, r.ext)
	}
}
