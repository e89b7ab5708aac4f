package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// noteDraft is a note the store refused or could not take, with the
// reason and the page's status.
type noteDraft struct {
	text, message string
	status        int
}

// noteTooLong is the message for a note over the bound, said before the
// store is asked so the typed text comes back however long it is.
func noteTooLong(text string) string {
	return "A note is at most " + views.Int(store.MaxNoteLen) + " characters; this one has " +
		views.Int(int64(noteLen(text))) + ". Nothing was saved: shorten it and save again."
}

// noteNotSaved is said when the database could not take a note or an edit.
const noteNotSaved = "Your note was not saved: your workspace cannot be reached just now. The text is kept here; save it again in a moment."

// noteLen counts as the store and a textarea's maxlength do: a line
// break sent as "\r\n" is one character.
func noteLen(text string) int {
	n := utf8.RuneCountInString(text)
	for i := 0; i+1 < len(text); i++ {
		if text[i] == '\r' && text[i+1] == '\n' {
			n--
		}
	}
	return n
}

// startNotes begins reading the overview's page of notes beside the
// page's other workspace reads (the watch state), within the same
// deadline; the function it returns waits for it and builds the section,
// with a refused draft if any. Only the read runs apart: the echo context
// stays with the request's goroutine.
func (h *Handler) startNotes(c *echo.Context, id int32, draft *noteDraft) func() *views.NotesSection {
	sec := &views.NotesSection{BusinessID: id, Page: notesPageParam(c.QueryParam(notesPageField))}
	if draft != nil {
		sec.Draft, sec.Error = draft.text, draft.message
	}
	ctx, a := h.wsCtx(c), h.analyst(c)
	var (
		notes []store.Note
		more  bool
		err   error
	)
	done := make(chan struct{})
	go func() {
		defer close(done)
		notes, more, err = h.store.NotesPage(ctx, a, id, sec.Page, notesPerPage)
	}()
	return func() *views.NotesSection {
		<-done
		if err != nil {
			h.logWorkspace(c, "notes", err)
			sec.Problem = &views.Problem{Title: "Notes unavailable", Message: "Your notes could not be read just now. Reload the page to try again."}
			return sec
		}
		sec.Notes, sec.More = views.NoteViews(notes, session.Must(c).User), more
		return sec
	}
}

// A report shows its newest notesPerPage notes; older ones are paged with
// ?notes=N, so a business with thousands of notes is still a small page.
const (
	notesPerPage   = 20
	notesPageField = "notes"
)

// notesPageParam reads the notes' page number; anything but a page within
// the most notes an analyst can hold is the first page.
func notesPageParam(v string) int {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > store.MaxNotes/notesPerPage+1 {
		return 1
	}
	return n
}

// submitNote writes a note on a business. A refused note re-renders the
// overview with the text as typed and the reason, status 422.
func (h *Handler) submitNote(c *echo.Context) error {
	ref, err := parseIDParam(c)
	if err != nil {
		return err
	}
	text := c.FormValue("text")
	msg, status := "", http.StatusUnprocessableEntity
	switch {
	case noteLen(text) > store.MaxNoteLen:
		msg = noteTooLong(text)
	default:
		a := h.analyst(c)
		_, err := h.store.AddNote(c.Request().Context(), a, ref.ID(), text)
		switch {
		case err == nil:
			h.touched(a)
			return redirect(c, views.BusinessPath(ref, views.TabOverview)+"#notes")
		case isFull(err) || isValidation(err):
			msg = storeMessage(err)
		default:
			// The database failed: the text comes back to be saved again.
			h.logWorkspace(c, "add note", err)
			msg, status = noteNotSaved, http.StatusServiceUnavailable
		}
	}
	showAt(c, views.BusinessPath(ref, views.TabOverview))
	return h.businessOverview(c, upstream.ByID(ref.ID()), &noteDraft{text: text, message: msg, status: status})
}

// submitNoteEdit replaces a note's text; a refused edit comes back in an
// edit form with the text as typed, status 422.
func (h *Handler) submitNoteEdit(c *echo.Context) error {
	id, err := rowID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	a := h.analyst(c)
	text := c.FormValue("text")
	note, err := h.store.Note(ctx, a, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return workspaceError(err)
	case err != nil:
		// The database failed: the text comes back to be saved again.
		h.logWorkspace(c, "edit note", err)
		return h.noteEditPage(c, http.StatusServiceUnavailable, store.Note{ID: id}, text, noteNotSaved)
	}
	msg, status := "", http.StatusUnprocessableEntity
	if noteLen(text) > store.MaxNoteLen {
		msg = noteTooLong(text)
	} else {
		_, err := h.store.EditNote(ctx, a, id, text)
		switch {
		case err == nil:
			h.touched(a)
			return redirect(c, noteReport(note)+"#notes")
		case isValidation(err):
			msg = storeMessage(err)
		case errors.Is(err, store.ErrNotFound):
			return workspaceError(err)
		default:
			h.logWorkspace(c, "edit note", err)
			msg, status = noteNotSaved, http.StatusServiceUnavailable
		}
	}
	return h.noteEditPage(c, status, note, text, msg)
}

// showNoteEdit is one note's edit form, the note's page of its own.
func (h *Handler) showNoteEdit(c *echo.Context) error {
	id, err := rowID(c)
	if err != nil {
		return err
	}
	note, err := h.store.Note(c.Request().Context(), h.analyst(c), id)
	if err != nil {
		return workspaceError(err)
	}
	return h.noteEditPage(c, http.StatusOK, note, note.Text, "")
}

// noteEditPage renders the edit form of note holding text, with a
// refusal's message if any.
func (h *Handler) noteEditPage(c *echo.Context, status int, note store.Note, text, msg string) error {
	nv := views.NoteViews([]store.Note{note}, session.Must(c).User)
	page := views.NoteEditPage{Note: nv[0], Text: text, Error: msg}
	if note.BusinessID > 0 { // unknown while the workspace is down
		page.ReportURL = noteReport(note)
	}
	page.Base = h.base(c, nil, "Edit note", views.NavBusiness)
	return h.render(c, status, templates.NoteEdit(page))
}

// submitNoteDelete deletes a note.
func (h *Handler) submitNoteDelete(c *echo.Context) error {
	id, err := rowID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	a := h.analyst(c)
	note, err := h.store.Note(ctx, a, id)
	if err != nil {
		return workspaceError(err)
	}
	if err := h.store.DeleteNote(ctx, a, id); err != nil {
		return workspaceError(err)
	}
	h.touched(a)
	return redirect(c, noteReport(note)+"#notes")
}

// noteReport is the overview a note is shown on.
func noteReport(n store.Note) string {
	return "/businesses/" + strconv.FormatInt(int64(n.BusinessID), 10)
}
