package simulator

import (
	"bytes"
	"os"
	"testing"
	"time"
)

func TestGenDebugDump(t *testing.T) {
	start := time.Now()
	d := Generate(GenerateOptions{Seed: 1, AsOf: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)})
	t.Logf("generate: %v", time.Since(start))
	var buf bytes.Buffer
	start = time.Now()
	if err := d.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	t.Logf("write: %v, %d bytes", time.Since(start), buf.Len())
	os.WriteFile("/tmp/gendbg/d.json", buf.Bytes(), 0o644)
	start = time.Now()
	_, err := LoadDataset(bytes.NewReader(buf.Bytes()))
	t.Logf("load: %v err=%v", time.Since(start), err)
}
