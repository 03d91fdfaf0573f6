# Stratum: one image for every role. Embedded (default):   docker run -p 8080:8080 -v stratum:/data IMAGE
# Distributed: the same image with DATABASE_URL and S3_* set, `serve --role api` or `worker` (compose.yaml).
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary can be fetched
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# no lifecycle scripts yet (prepare builds, and the sources are not copied yet); then the native module
RUN npm ci --ignore-scripts && npm rebuild better-sqlite3
COPY tsconfig.json ./
COPY src ./src
COPY scripts ./scripts
COPY bin ./bin
# the slice bundle and its V8 code cache (docs/architecture.md) need esbuild, a dev dependency: build
# them before the prune. The cache is made by this image's node, which the final stage runs too.
RUN npx tsc -p . && node scripts/build-slice-bundle.mjs && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production STRATUM_DATA_DIR=/data PORT=8080
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/bundle ./dist/bundle
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
# the launcher (bin/stratum, which runs bin/stratum.js and its V8 flags) is what a slice is measured with
ENTRYPOINT ["/app/bin/stratum"]
CMD ["serve"]
