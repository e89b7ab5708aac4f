package browsertest

import "testing"

// TestMain shares one Chromium between the tests and closes it at the end.
func TestMain(m *testing.M) { Main(m) }
