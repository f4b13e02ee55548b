# syntax=docker/dockerfile:1
# dipswitch's image (docs/containers.md): built on the official Node image, run as its unprivileged
# `node` user, the store on the /data volume, every setting from the environment variables the command
# reads (docs/running.md). Build it with the Docker format, which keeps the health check:
#   docker build -t dipswitch .          podman build --format docker -t dipswitch .
# Behind a TLS-intercepting proxy, its certificate authority goes in as a build secret, never a layer:
#   podman build --format docker --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt -t dipswitch .
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /build
COPY package.json package-lock.json ./
# install scripts build only optional native add-ons (ssh2's crypto binding) that dipswitch works without
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca npm_config_cafile=/run/secrets/ca; fi; \
    npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY contract ./contract
COPY fixtures ./fixtures
COPY scenarios ./scenarios
COPY docs ./docs
# the image holds the npm package's own files (npm pack of the build, unpacked), beside the production
# dependencies and every optional feature's packages (made production ones by scripts/image-features.mjs, the
# lockfile made again from that at the same versions); prune leaves the emptied scope folders behind: removed too
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca npm_config_cafile=/run/secrets/ca; fi; \
    npm run build && npm pack --ignore-scripts --silent && mkdir /package && tar -xzf dipswitch-*.tgz -C /package \
 && node scripts/image-features.mjs && npm install --package-lock-only --ignore-scripts --no-audit --no-fund \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && find node_modules -mindepth 1 -maxdepth 1 -type d -empty -delete

FROM ${NODE_IMAGE}
# the version and the repository the image is built from (CI passes both; a local build says it is one)
ARG VERSION=0.1.0
ARG SOURCE=local-build
LABEL org.opencontainers.image.title="dipswitch" \
      org.opencontainers.image.description="Contract-first simulator of a telephony provider's Provisioning and Messaging Account API" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="Apache-2.0"
WORKDIR /app
COPY --from=build /package/package/ ./
COPY --from=build /build/node_modules ./node_modules
# the store's default place, ./data/db.json from /app, is the /data volume: set by no variable, so MEMORY=true,
# DATA_FILE or DATABASE_URL given to the container choose freely
RUN mkdir -p /data && chown node:node /data && ln -s /data /app/data
# where it listens inside the container; the guard on /__sim is the user's to give
# (SIM_ADMIN_TOKEN, or UNSAFE_OPEN_CONTROL=true for a throwaway CI container): without either it refuses to start
ENV NODE_ENV=production HOST=0.0.0.0
VOLUME ["/data"]
USER node
EXPOSE 4010 2775
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 4010}/__sim/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/dist/src/cli/main.js"]
CMD ["serve"]
