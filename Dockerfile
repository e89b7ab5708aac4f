# CreditDash in three stages: browser assets from npm, a static Go build with
# everything embedded, and a minimal image that runs as a non-root user.
#
#   docker build -t creditdash .
#   docker run --rm -p 8080:8080 -v creditdash-data:/data creditdash  # demo mode
#   docker run --rm -p 8080:8080 -e UPSTREAM_URL=https://... \
#     -e SESSION_SECRET=... creditdash                            # real service

# 1. Browser assets (ECharts) from package-lock.json.
FROM node:20-bookworm-slim AS assets
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
COPY scripts/build-assets.sh scripts/
COPY static/ static/
RUN scripts/build-assets.sh

# 2. A static Go binary with templates, CSS, scripts and ECharts embedded.
FROM golang:1.26-bookworm AS build
WORKDIR /src
ENV CGO_ENABLED=0 GOFLAGS=-trimpath
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=assets /src/static/vendor/ static/vendor/
RUN go tool templ generate \
 && go build -ldflags="-s -w" -o /out/web ./cmd/web \
 && go build -ldflags="-s -w" -o /out/simulator ./cmd/simulator \
 && mkdir -p /out/data

# 3. Nothing but the binaries and CA certificates, as an unprivileged user.
FROM scratch
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
ENTRYPOINT ["/web"]
