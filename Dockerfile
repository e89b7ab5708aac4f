# CreditDash in three stages: browser assets from npm, a static Go build with
# everything embedded, and a minimal image that runs as a non-root user.
#
#   docker build --build-arg VERSION=$(git describe --always --dirty) \
#     --build-arg REVISION=$(git rev-parse HEAD) -t creditdash .
#   docker run --rm -p 8080:8080 -v creditdash-data:/data creditdash  # demo mode
#   docker run --rm -p 8080:8080 -e UPSTREAM_URL=https://... \
#     -e SESSION_SECRET_FILE=/run/secrets/session creditdash       # real service
#
# .dockerignore keeps node_modules, bin, .git and data/ out of the context;
# the cache mounts keep npm's, Go's module and build caches across builds.

# 1. Browser assets (ECharts) from package-lock.json, on Node 22 LTS.
FROM node:22-bookworm-slim AS assets
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
COPY scripts/build-assets.sh scripts/
COPY static/ static/
RUN --mount=type=cache,target=/root/.npm scripts/build-assets.sh

# 2. A static Go binary with templates, CSS, scripts and ECharts embedded,
# the version stamped in (web -version, creditdash_build_info).
FROM golang:1.26-bookworm AS build
ARG VERSION=dev
ARG REVISION=unknown
WORKDIR /src
ENV CGO_ENABLED=0 GOFLAGS=-trimpath
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
COPY --from=assets /src/static/vendor/ static/vendor/
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    go tool templ generate \
 && go build -ldflags="-s -w -X main.version=${VERSION} -X main.revision=${REVISION}" -o /out/web ./cmd/web \
 && go build -ldflags="-s -w" -o /out/simulator ./cmd/simulator \
 && mkdir -p /out/data

# 3. Nothing but the binaries and CA certificates, as an unprivileged user.
FROM scratch
ARG VERSION=dev
ARG REVISION=unknown
LABEL org.opencontainers.image.title="CreditDash" \
      org.opencontainers.image.description="Server-rendered dashboard for credit analysts" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/
COPY --from=build /out/web /out/simulator /
# The analysts' workspace (SQLite) lives in /data unless DATABASE_URL names
# a PostgreSQL server; the image has no mkdir, so the folder is copied in.
COPY --from=build --chown=65532:65532 /out/data /data
VOLUME /data
USER 65532:65532
ENV LISTEN_ADDR=0.0.0.0:8080 LOG_FORMAT=json DATA_DIR=/data
EXPOSE 8080
# The binary checks its own /healthz: the image has no shell or curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["/web", "-healthcheck"]
# A stop (SIGTERM) drains within SHUTDOWN_GRACE (30 s): give the runtime
# more before it kills (docker stop -t 40, compose's stop_grace_period).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/web"]
