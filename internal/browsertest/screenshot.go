package browsertest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/chromedp/chromedp"
)

// Screenshot saves a full-page PNG as testdata/screenshots/<test>-<name>.png
// and returns its path.
func (b *Browser) Screenshot(name string) string {
	b.t.Helper()
	ctx := b.ctx
	path, err := b.writeShot(ctx, name)
	if err != nil {
		b.t.Fatalf("browser: screenshot %s: %v", name, err)
	}
	return path
}

// saveShot is Screenshot for the harness's own shots: a shot that cannot be
// taken (the tab crashed, the deadline passed) is logged, not a failure.
func (b *Browser) saveShot(ctx context.Context, name string) {
	b.t.Helper()
	path, err := b.writeShot(ctx, name)
	if err != nil {
		b.t.Logf("browser: no screenshot %s: %v", shotName(b.t.Name(), name), err)
		return
	}
	if b.t.Failed() || name != "" {
		b.t.Logf("browser: screenshot %s", path)
	}
}

func (b *Browser) writeShot(ctx context.Context, name string) (string, error) {
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		return "", err
	}
	dir, err := b.shotDir()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, shotName(b.t.Name(), name))
	return path, os.WriteFile(path, png, 0o644)
}

// removeShot deletes a shot left by an earlier run, so a "-failed" picture
// never outlives the failure.
func (b *Browser) removeShot(name string) {
	dir, err := b.shotDir()
	if err != nil {
		return
	}
	_ = os.Remove(filepath.Join(dir, shotName(b.t.Name(), name)))
}

// shotDir creates testdata/screenshots at the repository root (the folder
// holding go.mod), wherever the test runs from.
func (b *Browser) shotDir() (string, error) {
	if b.shots != "" {
		return b.shots, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
	shots := filepath.Join(dir, "testdata", "screenshots")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		return "", err
	}
	b.shots = shots
	return shots, nil
}

// shotName turns a test name (with subtests) and a label into a file name.
func shotName(test, label string) string {
	name := test
	if label != "" {
		name += "-" + label
	}
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
	return clean + ".png"
}
