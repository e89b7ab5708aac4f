package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Bounds of notes.
const (
	// MaxNoteLen is a note's length in characters (Unicode code points,
	// as the form's maxlength counts them), line breaks counted as one.
	MaxNoteLen = 10000
	// MaxNotes is how many notes one analyst can keep in all.
	MaxNotes = 10000
	// MaxNoteBytes is how many bytes of text one analyst's notes may hold
	// in all: 10,000 notes of 10,000 characters would be up to 400 MB.
	MaxNoteBytes = 20 << 20
)

// Note is an analyst's plain-text note on a business.
type Note struct {
	ID         int64
	BusinessID int32
	// Author is the user name that wrote it.
	Author string
	// Text is plain text with "\n" line breaks; pages escape it.
	Text    string
	Created time.Time
	// Updated equals Created until the note is edited.
	Updated time.Time
}

// Edited reports whether the note was changed after it was written.
func (n Note) Edited() bool { return n.Updated.After(n.Created) }

// AddNote writes a new note on a business.
func (s *Store) AddNote(ctx context.Context, a Analyst, business int32, text string) (Note, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if err := checkBusiness(business); err != nil {
		return Note{}, err
	}
	text, err := checkNote(text)
	if err != nil {
		return Note{}, err
	}
	now := s.stamp()
	n := Note{ID: newID(), BusinessID: business, Author: a.User, Text: text, Created: fromStamp(now), Updated: fromStamp(now)}
	err = s.write(ctx, a, "add note", func(tx *sql.Tx, id int64) error {
		c, err := count(ctx, tx, "notes", id)
		if err != nil {
			return err
		}
		if c >= MaxNotes {
			return ErrNotesFull
		}
		if err := checkNoteBytes(ctx, tx, id, 0, len(text)); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO notes (id, analyst_id, business_id, author, body, created_at, updated_at, size)
			VALUES ($1, $2, $3, $4, $5, $6, $6, $7)`, n.ID, id, business, a.User, text, now, len(text))
		return err
	})
	if err != nil {
		return Note{}, err
	}
	return n, nil
}

// EditNote replaces the text of one of the analyst's notes; another
// analyst's note is ErrNotFound.
func (s *Store) EditNote(ctx context.Context, a Analyst, note int64, text string) (Note, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	text, err := checkNote(text)
	if err != nil {
		return Note{}, err
	}
	var n Note
	err = s.write(ctx, a, "edit note", func(tx *sql.Tx, id int64) error {
		var was int
		err := tx.QueryRowContext(ctx, "SELECT size FROM notes WHERE id = $1 AND analyst_id = $2", note, id).Scan(&was)
		if err == sql.ErrNoRows {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if err := checkNoteBytes(ctx, tx, id, was, len(text)); err != nil {
			return err
		}
		var created, updated int64
		err = tx.QueryRowContext(ctx, `UPDATE notes SET body = $3, updated_at = $4, size = $5
			WHERE id = $1 AND analyst_id = $2
			RETURNING id, business_id, author, body, created_at, updated_at`, note, id, text, s.stamp(), len(text)).
			Scan(&n.ID, &n.BusinessID, &n.Author, &n.Text, &created, &updated)
		if err == sql.ErrNoRows {
			return ErrNotFound
		}
		n.Created, n.Updated = fromStamp(created), fromStamp(updated)
		return err
	})
	if err != nil {
		return Note{}, err
	}
	return n, nil
}

// DeleteNote deletes one of the analyst's notes; another analyst's note is
// ErrNotFound.
func (s *Store) DeleteNote(ctx context.Context, a Analyst, note int64) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.write(ctx, a, "delete note", func(tx *sql.Tx, id int64) error {
		return deleteOwned(ctx, tx, "notes", note, id)
	})
}

// Note is one of the analyst's notes, for the edit form.
func (s *Store) Note(ctx context.Context, a Analyst, note int64) (Note, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	ns, err := s.notes(ctx, a, "AND id = $3", newestFirst, 0, 0, note)
	if err != nil {
		return Note{}, err
	}
	if len(ns) == 0 {
		return Note{}, ErrNotFound
	}
	return ns[0], nil
}

// Notes are the analyst's notes on one business, newest first.
func (s *Store) Notes(ctx context.Context, a Analyst, business int32) ([]Note, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.notes(ctx, a, "AND business_id = $3", newestFirst, 0, 0, business)
}

// NotesPage is one page of the analyst's notes on a business, newest
// first: page 1 is the newest size of them. more says older ones follow.
func (s *Store) NotesPage(ctx context.Context, a Analyst, business int32, page, size int) (notes []Note, more bool, err error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	page, size = max(page, 1), min(max(size, 1), 1000)
	offset := min(page-1, MaxNotes) * size
	notes, err = s.notes(ctx, a, "AND business_id = $3", newestFirst, size+1, offset, business)
	if len(notes) > size {
		notes, more = notes[:size], true
	}
	return notes, more, err
}

// NotesBatch is how many notes EachNote reads at a time: at most 10,000
// characters each, so a batch holds a few MB at worst.
const NotesBatch = 100

// EachNote calls fn with each of the analyst's notes, by business and then
// oldest first (the rows of notes.csv), reading them NotesBatch at a time:
// a download holds one batch in memory and no database connection while
// the browser takes its bytes. An error of fn stops it and is returned.
func (s *Store) EachNote(ctx context.Context, a Analyst, fn func(Note) error) error {
	var after *Note
	for {
		batch, err := s.noteBatch(ctx, a, after)
		if err != nil {
			return err
		}
		for _, n := range batch {
			if err := fn(n); err != nil {
				return err
			}
		}
		if len(batch) < NotesBatch {
			return nil
		}
		after = &batch[len(batch)-1]
	}
}

// noteBatch is the batch of notes after the note after (from the first
// when nil), in notes.csv's order.
func (s *Store) noteBatch(ctx context.Context, a Analyst, after *Note) ([]Note, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if after == nil {
		return s.notes(ctx, a, "", csvOrder, NotesBatch, 0)
	}
	return s.notes(ctx, a, "AND (business_id > $3 OR business_id = $3 AND (created_at > $4 OR created_at = $4 AND id > $5))",
		csvOrder, NotesBatch, 0, after.BusinessID, after.Created.UnixMicro(), after.ID)
}

// checkNoteBytes refuses a note of size bytes, replacing one of was bytes,
// that would take the analyst's notes past MaxNoteBytes.
func checkNoteBytes(ctx context.Context, tx *sql.Tx, analyst int64, was, size int) error {
	var held int64
	if err := tx.QueryRowContext(ctx, "SELECT COALESCE(SUM(size), 0) FROM notes WHERE analyst_id = $1", analyst).Scan(&held); err != nil {
		return err
	}
	if held-int64(was)+int64(size) > MaxNoteBytes {
		return invalid("text", "your notes may hold %s MB of text in all and already hold %s MB; delete or shorten some to make room",
			grouped(MaxNoteBytes>>20), grouped(int(held>>20)))
	}
	return nil
}

// AllNotes are all the analyst's notes, by business and then oldest first:
// the rows of notes.csv.
func (s *Store) AllNotes(ctx context.Context, a Analyst) ([]Note, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.notes(ctx, a, "", csvOrder, 0, 0)
}

// Orders of the notes query: a business's page, and notes.csv's.
const (
	newestFirst = "created_at DESC, id DESC"
	csvOrder    = "business_id, created_at, id"
)

// notes runs the one notes query with an extra condition on $3 on, in
// order, at most limit rows (all when 0) after skipping offset.
func (s *Store) notes(ctx context.Context, a Analyst, cond, order string, limit, offset int, arg ...any) ([]Note, error) {
	a, err := a.key()
	if err != nil {
		return nil, err
	}
	if limit > 0 {
		order += " LIMIT " + strconv.Itoa(limit) + " OFFSET " + strconv.Itoa(offset)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, business_id, author, body, created_at, updated_at FROM notes
		WHERE analyst_id = `+analystID+" "+cond+" ORDER BY "+order, append([]any{a.Service, a.User}, arg...)...)
	if err != nil {
		return nil, wrap("notes", err)
	}
	defer rows.Close()
	var out []Note
	for rows.Next() {
		var n Note
		var created, updated int64
		if err := rows.Scan(&n.ID, &n.BusinessID, &n.Author, &n.Text, &created, &updated); err != nil {
			return nil, wrap("notes", err)
		}
		n.Created, n.Updated = fromStamp(created), fromStamp(updated)
		out = append(out, n)
	}
	return out, wrap("notes", rows.Err())
}

// checkNote normalises line breaks to "\n" and checks the length. Browsers
// send a textarea's line breaks as CRLF while its maxlength counts them as
// one character, so a note that fit the form must fit here too.
func checkNote(text string) (string, error) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	switch {
	case !cleanText(text):
		return text, invalid("text", "the note is not valid text")
	case strings.TrimSpace(text) == "":
		return text, invalid("text", "a note cannot be empty")
	case utf8.RuneCountInString(text) > MaxNoteLen:
		return text, invalid("text", "a note is at most %s characters (this one has %s)",
			grouped(MaxNoteLen), grouped(utf8.RuneCountInString(text)))
	}
	return text, nil
}

// deleteOwned deletes row id of table if the analyst owns it.
func deleteOwned(ctx context.Context, tx *sql.Tx, table string, id, analyst int64) error {
	res, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE id = $1 AND analyst_id = $2", id, analyst)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err == nil && n == 0 {
		return ErrNotFound
	}
	return err
}
