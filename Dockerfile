# syntax=docker/dockerfile:1
#
# The climax HTTP server as a container image: a static binary on a
# minimal base that runs as a non-root user.
#
#   docker build -t climax --build-arg VERSION=v0.1.0 .
#
# The image holds climax and nothing else (no shell, no git): served as it
# is, every config's program is missing (GET /readyz answers 503 and every
# call fails). Copy climax from it into an image with the programs your
# configs run (README.md, "Container images", shows how), or build
# deploy/Dockerfile.tools, climax with git on Debian:
#
#   docker build -f deploy/Dockerfile.tools -t climax-tools .
#   docker run --rm -p 8080:8080 -e CLIMAX_AUTH_TOKEN="$(openssl rand -hex 32)" climax-tools --stateless git
#
# The arguments after the image name are climax run's flags and configs.
# Probes: GET /healthz answers 200 without a token (the base has no shell
# or curl for a HEALTHCHECK; Kubernetes probes call it, see deploy/).

FROM golang:1.26 AS build
WORKDIR /src
COPY . .
ARG VERSION=
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/climax ./climax

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/climax /usr/local/bin/climax
COPY LICENSE NOTICE THIRD_PARTY_LICENSES /usr/share/doc/climax/
USER nonroot:nonroot
EXPOSE 8080
# The token comes from the environment: docker run -e CLIMAX_AUTH_TOKEN=...,
# or a Kubernetes Secret. climax refuses to listen on 0.0.0.0 without one.
ENTRYPOINT ["climax", "run", "--transport", "http", "--addr", "0.0.0.0:8080"]
