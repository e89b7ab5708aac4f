package handlers

import (
	"context"

	"creditdash/internal/store"
)

// A ledger file is previewed before it is imported; the preview's forms
// (a new column mapping, the import itself) name the waiting file by a
// token instead of sending it again. The file waits in the store
// (store.KeepUpload), not in this process, so behind several replicas
// without sticky sessions the import may land on any of them. The store
// bounds the waiting files per analyst (one), per team and in time; a
// preview whose file went asks for it again, which costs a click, never a
// wrong import.

// PendingUploads keeps the ledger files waiting for their import.
type PendingUploads interface {
	// KeepUpload replaces the analyst's waiting file and returns it with
	// its token.
	KeepUpload(ctx context.Context, a store.Analyst, name string, data []byte) (store.Upload, error)
	// PendingUpload is the analyst's waiting file named by token;
	// store.ErrNotFound when it is gone.
	PendingUpload(ctx context.Context, a store.Analyst, token string) (store.Upload, error)
	// DropUpload forgets the analyst's waiting file.
	DropUpload(ctx context.Context, a store.Analyst) error
}
