# Stratum: one image for every role. Embedded (default):   docker run -p 8080:8080 -v stratum:/data IMAGE
# Distributed: the same image with DATABASE_URL and S3_* set, `serve --role api` or `worker` (compose.yaml).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# no lifecycle scripts (prepare builds, and the sources are not copied yet). Nothing to compile: on
# Node 22 and later the SQLite module is better-sqlite3 13, prebuilt in its package; the optional
# better-sqlite3-node20 (12, for Node 20 only: src/store/sqlite/driver.ts) is removed below.
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY src ./src
COPY scripts ./scripts
COPY bin ./bin
# the slice bundle and its V8 code cache (docs/architecture.md) need esbuild, a dev dependency: build
# them before the prune. The cache is made by this image's node, which the final stage runs too.
RUN npx tsc -p . && node scripts/build-slice-bundle.mjs && npm prune --omit=dev && rm -rf node_modules/better-sqlite3-node20

FROM node:24-bookworm-slim
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
