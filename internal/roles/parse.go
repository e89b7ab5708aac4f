package roles

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Parse reads the team's roles: entries "name=role[:authority]" separated
// by commas or line breaks, as TEAM_ROLES and TEAM_ROLES_FILE hold them.
// Blank entries are skipped and "#" starts a comment to the end of its
// line, for files. source names where the text came from ("TEAM_ROLES");
// every bad entry is reported, each named by its text and, when the text
// has several lines, its line. analystAuthority is ANALYST_AUTHORITY.
func Parse(source, text string, analystAuthority int64) (*Table, error) {
	if analystAuthority < 0 || analystAuthority > MaxAuthority {
		return nil, fmt.Errorf("roles: %s: analyst authority %d is not from 0 to %d", source, analystAuthority, MaxAuthority)
	}
	t := &Table{named: map[string]Assignment{}, analystAuthority: analystAuthority}
	where := map[string]string{} // name -> where it was first named
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var errs []error
	for i, line := range lines {
		if c := strings.IndexByte(line, '#'); c >= 0 {
			line = line[:c]
		}
		place := source
		if len(lines) > 1 {
			place = fmt.Sprintf("%s line %d", source, i+1)
		}
		for _, entry := range strings.Split(line, ",") {
			if entry = strings.TrimSpace(entry); entry == "" {
				continue
			}
			name, a, err := parseEntry(entry, analystAuthority)
			if err == nil && where[name] != "" {
				err = fmt.Errorf("%s is named twice (first in %s)", name, where[name])
			}
			if err == nil && len(t.named) >= maxEntries {
				err = fmt.Errorf("at most %d users can be named", maxEntries)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("roles: %s: %q: %w", place, entry, err))
				continue
			}
			t.named[name], where[name] = a, place
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return t, nil
}

// parseEntry reads one "name=role[:authority]".
func parseEntry(entry string, analystAuthority int64) (string, Assignment, error) {
	name, spec, ok := strings.Cut(entry, "=")
	name, spec = strings.TrimSpace(name), strings.TrimSpace(spec)
	if !ok {
		return "", Assignment{}, errors.New("not name=role[:authority], such as alice=manager:250000")
	}
	if err := checkName(name); err != nil {
		return "", Assignment{}, err
	}
	roleText, authText, hasAuth := strings.Cut(spec, ":")
	a := Assignment{Role: Role(strings.ToLower(strings.TrimSpace(roleText)))}
	if !a.Role.valid() {
		return "", Assignment{}, fmt.Errorf("role %q is not analyst, manager, admin or auditor", strings.TrimSpace(roleText))
	}
	switch {
	case hasAuth && a.Role == Auditor:
		return "", Assignment{}, fmt.Errorf("an auditor changes nothing, so has no authority: write %s=auditor", name)
	case hasAuth:
		n, err := ParseAuthority(authText)
		if err != nil {
			return "", Assignment{}, err
		}
		a.Authority = n
	case a.Role == Manager || a.Role == Admin:
		return "", Assignment{}, fmt.Errorf("%s needs an authority, such as %s=%s:250000", map[Role]string{Manager: "a manager", Admin: "an admin"}[a.Role], name, a.Role)
	case a.Role == Analyst:
		a.Authority = analystAuthority
	}
	return name, a, nil
}

// checkName refuses names no service user has: empty, too long, or with
// control characters (a line break in a name would forge a log line).
func checkName(name string) error {
	switch {
	case name == "":
		return errors.New("the user name is missing")
	case name == Everyone:
		return errors.New(`"*" stands for everyone not named (their authority is ANALYST_AUTHORITY) and cannot be named`)
	case len(name) > maxNameLen:
		return fmt.Errorf("the user name is longer than %d bytes", maxNameLen)
	case !utf8.ValidString(name):
		return errors.New("the user name is not valid UTF-8")
	case strings.ContainsFunc(name, unicode.IsControl):
		return errors.New("the user name holds a control character")
	}
	return nil
}
