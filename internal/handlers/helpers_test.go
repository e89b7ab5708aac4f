package handlers_test

import re "regexp"

func regexp(pattern, s string) bool { return re.MustCompile(pattern).MatchString(s) }
