package store

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// checkBusiness refuses ids the service never uses (it numbers businesses
// from 1).
func checkBusiness(id int32) error {
	if id <= 0 {
		return invalid("business", "not a business id")
	}
	return nil
}

// checkName trims a display name and bounds it; an empty one is allowed
// (pages then show the id).
func checkName(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if !cleanText(s) {
		return s, invalid(field, "the business name is not valid text")
	}
	if utf8.RuneCountInString(s) > maxNameLen {
		return s, invalid(field, "the business name is longer than %d characters", maxNameLen)
	}
	return s, nil
}

// wrap names the operation on a driver error; nil stays nil.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("store: %s: %w", op, err)
}
