package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// File is one finished download.
type File struct {
	// Name is the file name the server suggested (Content-Disposition).
	Name string
	// URL is where the file came from.
	URL string
	// Data is the whole file.
	Data []byte
}

// Download runs trigger (e.g. a Click on an export link, not ClickNavigate:
// a download loads no page), waits up to the test deadline for the download
// it starts to finish and returns the file.
func (b *Browser) Download(trigger func()) File {
	b.t.Helper()
	dir := b.allowDownloads()
	frames := b.frames()

	// Subscribe before the trigger so no event is lost. The events are the
	// browser's, for every tab, so ours is picked by the frame that began it.
	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	begins := chromedp.BrowserEvents(ctx, browser.DownloadWillBegin)
	progress := chromedp.BrowserEvents(ctx, browser.DownloadProgress)

	trigger()

	var begin browser.EventDownloadWillBegin
	for ev, err := range begins {
		if err != nil {
			b.fatalf("waiting for a download to begin: %v", err)
		}
		if frames[ev.FrameID] {
			begin = ev
			break
		}
	}
	if begin.GUID == "" {
		b.fatalf("no download began")
	}
	for ev, err := range progress {
		if err != nil {
			b.fatalf("waiting for the download of %s: %v", begin.URL, err)
		}
		if ev.GUID != begin.GUID {
			continue
		}
		switch ev.State {
		case browser.DownloadProgressStateCompleted:
			// allowAndName saves the file under its GUID, so two downloads
			// with the same suggested name cannot overwrite each other.
			data, err := os.ReadFile(filepath.Join(dir, begin.GUID))
			if err != nil {
				b.fatalf("reading the download of %s: %v", begin.URL, err)
			}
			return File{Name: begin.SuggestedFilename, URL: begin.URL, Data: data}
		case browser.DownloadProgressStateCanceled:
			b.fatalf("the download of %s was canceled after %.0f bytes", begin.URL, ev.ReceivedBytes)
		}
	}
	b.fatalf("the download of %s never finished", begin.URL)
	return File{}
}

// allowDownloads lets the tab's browser context save files into a temporary
// folder of the test and report their progress; it returns the folder.
func (b *Browser) allowDownloads() string {
	b.t.Helper()
	if b.dlDir != "" {
		return b.dlDir
	}
	dir := b.t.TempDir()
	ctx := b.ctx
	_, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior:         browser.SetDownloadBehaviorBehaviorAllowAndName,
		BrowserContextID: chromedp.FromContext(b.tab).BrowserContextID,
		DownloadPath:     dir,
		EventsEnabled:    new(true),
	})
	if err != nil {
		b.fatalf("allowing downloads: %v", err)
	}
	b.dlDir = dir
	return dir
}

// frames is the set of frames of the tab's page, any of which may start a
// download.
func (b *Browser) frames() map[cdp.FrameID]bool {
	b.t.Helper()
	ctx := b.ctx
	res, err := chromedp.Call(ctx, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		b.fatalf("listing the page's frames: %v", err)
	}
	set := map[cdp.FrameID]bool{}
	var walk func(*page.FrameTree)
	walk = func(ft *page.FrameTree) {
		if ft == nil || ft.Frame == nil {
			return
		}
		set[ft.Frame.ID] = true
		for _, c := range ft.ChildFrames {
			walk(c)
		}
	}
	walk(res.FrameTree)
	return set
}

// String is the file's name and size, for failure messages.
func (f File) String() string {
	return fmt.Sprintf("%s (%d bytes from %s)", f.Name, len(f.Data), f.URL)
}
