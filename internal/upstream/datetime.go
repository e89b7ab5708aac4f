package upstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// DateTime is a date-time from the service. The zero value means the service
// sent nothing (absent, null or an empty string).
type DateTime struct {
	time.Time
}

// UnmarshalJSON accepts ISO 8601 with or without a zone, null and "".
func (d *DateTime) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		d.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("date-time: %w", err)
	}
	t, err := parseDateTime(s)
	if err != nil {
		return err
	}
	d.Time = t
	return nil
}

// MarshalJSON writes the service's own layout, so values round-trip.
func (d DateTime) MarshalJSON() ([]byte, error) {
	if d.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(d.Format(dateTimeLayouts[0]))
}

// parseDateTime reads the layouts the service may send; "" is the zero time.
func parseDateTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range dateTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("date-time: cannot read %q", s)
}
