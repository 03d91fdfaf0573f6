#!/usr/bin/env bash
# Builds the Docker image and tries it the way a user would: the embedded service (a key, an upload, a
# slice, the download, the file still there after a restart), the `slice` command, and the distributed
# roles (`serve --role api` and `worker`) against a throwaway PostgreSQL and S3 server on this machine.
# Needs a running Docker engine; not part of `npm test` (CI has none).
#
#   scripts/image-smoke.sh [IMAGE]     (default stratum:smoke; built from this checkout first)
#
# The containers use the host's network (--network host), so the ports below must be free.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
image=${1:-stratum:smoke}
model="$root/../shared/models/xyz_calibration_cube.stl"
[ -r "$model" ] || { echo "image-smoke: no model to slice (../shared/models beside the checkout)" >&2; exit 2; }
api_port=18780
ops_port=18790
names=(stratum-smoke-embedded stratum-smoke-api stratum-smoke-worker)
pg_dir=
s3_pid=
cleanup() {
  docker rm -f "${names[@]}" >/dev/null 2>&1 || true
  docker volume rm -f stratum-smoke-data >/dev/null 2>&1 || true
  [ -n "$s3_pid" ] && kill "$s3_pid" 2>/dev/null || true
  [ -n "$pg_dir" ] && bash "$root/scripts/dist/postgres.sh" stop "$pg_dir" >/dev/null 2>&1 || true
}
trap cleanup EXIT
say() { echo "image-smoke: $*"; }
fail() { echo "image-smoke: FAILED: $*" >&2; exit 1; }
json() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const v=JSON.parse(s)$1;console.log(v)})"; }

wait_ready() { # URL
  for _ in $(seq 60); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 1; done
  return 1
}

# upload, task, poll, download against $1 (base URL) with key $2; prints the G-code's size
slice_over_http() {
  local base=$1 key=$2 file task status out
  file=$(curl -fsS -X POST "$base/v1/upload/STL/cube.stl" -H "Ocp-Apim-Subscription-Key: $key" \
    -H 'Content-Type: application/octet-stream' --data-binary @"$model" | json .fileId)
  task=$(curl -fsS -X POST "$base/v1/stl/tasks" -H "Ocp-Apim-Subscription-Key: $key" -H 'Content-Type: application/json' \
    -d "{\"files\":[{\"fileId\":\"$file\",\"type\":\"STL\",\"fileName\":\"cube.stl\"}],\"settings\":{\"printerModel\":\"Creality Ender 3\",\"supportType\":\"n\",\"filamentPresetName\":\"Generic_PLA\"}}" | json .taskId)
  for _ in $(seq 120); do
    status=$(curl -fsS "$base/v1/stl/tasks/$task" -H "Ocp-Apim-Subscription-Key: $key" | json .status)
    [ "$status" = finished ] && break
    [ "$status" = failed ] && fail "task $task failed"
    sleep 0.5
  done
  [ "$status" = finished ] || fail "task $task still $status after 60 s"
  out=$(curl -fsS "$base/v1/stl/tasks/$task" -H "Ocp-Apim-Subscription-Key: $key" | json .output.outputId)
  curl -fsS "$base/v1/output/$out/download" -H "Ocp-Apim-Subscription-Key: $key" -o /tmp/stratum-smoke.gcode
  grep -q '^;LAYER_COUNT:' /tmp/stratum-smoke.gcode || fail "the download is no G-code"
  echo "$out"
}

if [ "$image" = stratum:smoke ]; then
  say "building $image"
  # host network: the build fetches packages from npm, which some engines only reach that way
  docker build --network host -q -t "$image" "$root" >/dev/null
fi

say "embedded service"
docker volume create stratum-smoke-data >/dev/null
docker run -d --name stratum-smoke-embedded --network host -e PORT=$api_port -v stratum-smoke-data:/data "$image" >/dev/null
wait_ready "http://127.0.0.1:$api_port/readyz" || fail "the embedded service did not become ready"
key=$(docker exec stratum-smoke-embedded /app/bin/stratum keys create --name smoke 2>/dev/null)
out=$(slice_over_http "http://127.0.0.1:$api_port" "$key")
say "  sliced and downloaded ($(wc -c < /tmp/stratum-smoke.gcode) bytes)"
docker restart stratum-smoke-embedded >/dev/null
wait_ready "http://127.0.0.1:$api_port/readyz" || fail "the embedded service did not come back after a restart"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$api_port/v1/output/$out/download" -H "Ocp-Apim-Subscription-Key: $key")
[ "$code" = 200 ] || fail "after a restart the output answers $code"
say "  the output is still there after a restart"
docker rm -f stratum-smoke-embedded >/dev/null

say "slice command"
docker run --rm -v "$(dirname "$model"):/models:ro" "$image" slice "/models/$(basename "$model")" -o /tmp/out.gcode

say "distributed roles"
pg_out=$(bash "$root/scripts/dist/postgres.sh" start)
pg_dir=$(echo "$pg_out" | sed -n 's/^STRATUM_PG_DIR=//p')
database_url=$(echo "$pg_out" | sed -n 's/^DATABASE_URL=//p')
coproc S3 { exec node "$root/scripts/dist/s3.mjs" --bucket stratum --exit-with-stdin; }
s3_pid=$S3_PID
read -r s3_line <&"${S3[0]}"
s3_endpoint=$(echo "$s3_line" | json .endpoint)
env_args=(-e "DATABASE_URL=$database_url" -e "S3_ENDPOINT=$s3_endpoint" -e S3_BUCKET=stratum -e S3_REGION=us-east-1
  -e S3_ACCESS_KEY_ID=S3RVER -e S3_SECRET_ACCESS_KEY=S3RVER)
docker run -d --name stratum-smoke-api --network host "${env_args[@]}" -e PORT=$api_port "$image" serve --role api >/dev/null
docker run -d --name stratum-smoke-worker --network host "${env_args[@]}" -e STRATUM_WORKERS=1 -e STRATUM_OPS_PORT=$ops_port "$image" worker >/dev/null
wait_ready "http://127.0.0.1:$api_port/readyz" || fail "the API process did not become ready"
wait_ready "http://127.0.0.1:$ops_port/readyz" || fail "the worker did not become ready"
key=$(docker run --rm --network host "${env_args[@]}" "$image" keys create --name smoke 2>/dev/null)
slice_over_http "http://127.0.0.1:$api_port" "$key" >/dev/null
say "  an API process and a worker sliced and served a task through PostgreSQL and S3"
docker stop -t 15 stratum-smoke-worker >/dev/null
docker logs stratum-smoke-worker 2>&1 | grep -q '"msg":"stopped"' || fail "the worker did not stop cleanly on SIGTERM"
say "  the worker stopped cleanly on SIGTERM"
say "passed"
