package store

import (
	"errors"
	"os"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Deleting needs room too: SQLite writes the pages a delete changes to its
// write-ahead log before it frees any, so on a full disk even "delete all
// my data" would fail, when the analyst most needs it. Beside the database
// the store keeps a reserve file of zeros, written at start; a delete that
// meets a full disk gives the reserve's room back to the file system and
// tries once more. The reserve is written again at the next start.

// ReserveName is the reserve file's name inside Config.DataDir.
const ReserveName = FileName + ".reserve"

// reserveBytes is the room kept for deletes.
const reserveBytes = 8 << 20

// keepReserve writes the reserve at path unless it is there whole; on a
// disk too full to hold it, it keeps none rather than a part.
func keepReserve(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.Size() >= reserveBytes {
		return nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	// Zeros written, not a sparse length: only written blocks are held.
	zeros := make([]byte, 1<<20)
	for range reserveBytes / len(zeros) {
		if _, err = f.Write(zeros); err != nil {
			break
		}
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
	}
	return err
}

// diskFull reports an error of a write that found the disk full.
func diskFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	return err != nil && strings.Contains(err.Error(), "disk is full")
}

// freeing runs a delete, and once more after giving back the reserve if
// the disk was full.
func (s *Store) freeing(op string, fn func() error) error {
	err := fn()
	if !diskFull(err) || s.reserve == "" {
		return err
	}
	if rerr := os.Remove(s.reserve); rerr != nil {
		return err
	}
	s.log.Warn("store: the disk is full; the reserve is given back so a delete can go through", "op", op)
	return fn()
}
