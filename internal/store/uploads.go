package store

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// A ledger file is previewed before it is imported; the preview's forms (a
// new column mapping, the import itself) name the waiting file by a token
// instead of sending it again. The file waits here, not in one replica's
// memory, so the confirmation may land on any replica behind the balancer.
// Each analyst has at most one file waiting (a new preview replaces it),
// a team at most MaxTeamUploads files and Config.UploadBytes bytes (past
// those the oldest go), each for UploadLife; an expired or dropped file's
// preview asks for the file again, which costs a click, never a wrong
// import.

// Bounds of the waiting files.
const (
	UploadLife     = 30 * time.Minute
	MaxTeamUploads = 16
	// DefaultTeamUploadBytes is ten files at the import's 10 MB.
	DefaultTeamUploadBytes = 100 << 20
)

// Upload is a file waiting for its import.
type Upload struct {
	Token string
	Name  string
	Data  []byte
}

// KeepUpload replaces the analyst's waiting file with this one and returns
// it with its new token. Expired files of the team go, and the team's
// oldest past its bounds.
func (s *Store) KeepUpload(ctx context.Context, a Analyst, name string, data []byte) (Upload, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return Upload{}, err
	}
	if int64(len(data)) > s.uploadBytes {
		return Upload{}, invalid("file", "the file is too large to keep")
	}
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	up := Upload{Token: hex.EncodeToString(b[:]), Name: cleanName(name), Data: data}
	packed, err := pack(data)
	if err != nil {
		return Upload{}, wrap("keep upload", err)
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return Upload{}, wrap("keep upload", err)
	}
	defer tx.Rollback()
	now := s.stamp()
	if _, err := tx.ExecContext(ctx, `INSERT INTO pending_uploads (id, service, user_name, token, file_name, size, data, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (service, user_name) DO UPDATE SET token = excluded.token, file_name = excluded.file_name,
			size = excluded.size, data = excluded.data, created_at = excluded.created_at`,
		newID(), a.Service, a.User, up.Token, up.Name, int64(len(data)), packed, now); err != nil {
		return Upload{}, wrap("keep upload", err)
	}
	if err := s.trimUploads(ctx, tx, a.Service, now); err != nil {
		return Upload{}, wrap("keep upload", err)
	}
	return up, wrap("keep upload", tx.Commit())
}

// trimUploads drops the team's expired files, then its oldest past the
// bounds (the newest, just kept, always stays).
func (s *Store) trimUploads(ctx context.Context, tx *sql.Tx, service string, now int64) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM pending_uploads WHERE service = $1 AND created_at < $2",
		service, now-UploadLife.Microseconds()); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, "SELECT id, size FROM pending_uploads WHERE service = $1 ORDER BY created_at DESC, id", service)
	if err != nil {
		return err
	}
	var drop []int64
	n, total := 0, int64(0)
	for rows.Next() {
		var id, size int64
		if err := rows.Scan(&id, &size); err != nil {
			rows.Close()
			return err
		}
		n++
		total += size
		if n > 1 && (n > MaxTeamUploads || total > s.uploadBytes) {
			drop = append(drop, id)
		}
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return err
	}
	for _, id := range drop {
		if _, err := tx.ExecContext(ctx, "DELETE FROM pending_uploads WHERE id = $1", id); err != nil {
			return err
		}
	}
	return nil
}

// PendingUpload is the analyst's waiting file if token names it and it has
// not expired; ErrNotFound otherwise.
func (s *Store) PendingUpload(ctx context.Context, a Analyst, token string) (Upload, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return Upload{}, err
	}
	if token == "" {
		return Upload{}, ErrNotFound
	}
	up := Upload{Token: token}
	var size int64
	var packed []byte
	err = s.r.QueryRowContext(ctx, `SELECT file_name, size, data FROM pending_uploads
		WHERE service = $1 AND user_name = $2 AND token = $3 AND created_at >= $4`,
		a.Service, a.User, token, s.stamp()-UploadLife.Microseconds()).Scan(&up.Name, &size, &packed)
	if errors.Is(err, sql.ErrNoRows) {
		return Upload{}, ErrNotFound
	}
	if err != nil {
		return Upload{}, wrap("pending upload", err)
	}
	if up.Data, err = unpack(packed, size, s.uploadBytes); err != nil {
		// Not a file this store packed (one kept before files were
		// packed): asking for the file again costs a click.
		s.log.Warn("store: a waiting upload cannot be unpacked", "err", err)
		return Upload{}, ErrNotFound
	}
	return up, nil
}

// A waiting file is kept deflated: a CSV shrinks several times, so the
// engine's driver copies (a PostgreSQL parameter is encoded twice on its
// way out) and the read back cost a fraction of the file, and a team's
// files take less room. The size kept, and bounded, is the file's own.

// pack deflates data, fast rather than small.
func pack(data []byte) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(data)/4 + 64)
	w, err := flate.NewWriter(&b, flate.BestSpeed)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// unpack inflates a packed file of size bytes (at most limit) into a buffer of exactly
// that size, refusing one that inflates to any other.
func unpack(packed []byte, size, limit int64) ([]byte, error) {
	if size < 0 || size > limit {
		return nil, fmt.Errorf("store: a waiting file of %d bytes", size)
	}
	r := flate.NewReader(bytes.NewReader(packed))
	defer r.Close()
	data := make([]byte, size)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("store: unpack a waiting file: %w", err)
	}
	if n, _ := r.Read(make([]byte, 1)); n != 0 {
		return nil, errors.New("store: a waiting file longer than its size")
	}
	return data, nil
}

// DropUpload forgets the analyst's waiting file (imported, or unreadable).
func (s *Store) DropUpload(ctx context.Context, a Analyst) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return err
	}
	_, err = s.w.ExecContext(ctx, "DELETE FROM pending_uploads WHERE service = $1 AND user_name = $2", a.Service, a.User)
	return wrap("drop upload", err)
}

// cleanName is a file's name as the store keeps it: at most
// maxFileNameLen characters of valid text without NUL, which PostgreSQL's
// TEXT refuses.
func cleanName(name string) string {
	if utf8.RuneCountInString(name) > maxFileNameLen {
		name = string([]rune(name)[:maxFileNameLen])
	}
	return strings.ToValidUTF8(strings.ReplaceAll(name, "\x00", ""), "\uFFFD")
}
