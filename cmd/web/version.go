package main

import (
	"runtime"
	"runtime/debug"
)

// version is stamped in by the build (-ldflags "-X main.version=v1.2.3",
// see the Dockerfile); a plain go build says "dev".
var version = "dev"

// revision is the commit, stamped in by builds without .git (the image's);
// otherwise Go's own VCS stamp is read.
var revision = ""

// buildInfo is what -version prints and creditdash_build_info carries.
type buildInfo struct {
	Version, Revision, GoVersion string
}

// currentBuild reads the version and the commit Go stamped into the binary
// (the revision is "unknown" outside a git checkout, as in the image's
// build without .git).
func currentBuild() buildInfo {
	b := buildInfo{Version: version, Revision: "unknown", GoVersion: runtime.Version()}
	if revision != "" {
		b.Revision = revision
	} else if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && s.Value != "" {
				b.Revision = s.Value
			}
		}
	}
	return b
}
