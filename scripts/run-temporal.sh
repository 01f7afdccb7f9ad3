#!/usr/bin/env bash
# run-temporal.sh BIN METHOD.json INPUTS.json: start the Temporal dev
# server (loopback only, in memory) and a jinjabox worker, run the method
# with `jinjabox run` (bin/jinjabox-method, which bin/jinjabox runs), print
# its result, and stop both, whatever happens.
# The worker is versioned, as in production (docs/temporal.md): it polls
# as jinjabox/$TEMPORAL_WORKER_BUILD_ID (default dev), which is made the
# deployment's current version once it polls, so the run is pinned to it.
# Logs go to $BIN/run-logs/ (the server's and the worker's).
set -euo pipefail

bin=$1 method=$2 inputs=$3
# the Temporal CLI: TEMPORAL_CLI (make run passes the one it found), else $bin/temporal
temporal=${TEMPORAL_CLI:-$bin/temporal}
port=${TEMPORAL_PORT:-7233}
export TEMPORAL_ADDRESS=127.0.0.1:$port
export JINJABOX_TRACES=${JINJABOX_TRACES:-off}
# payloads of 256 KiB or more go to a directory beside the logs (the
# payload store's file driver, docs/temporal.md), for the worker and the
# starter alike
export JINJABOX_PAYLOAD_STORE=${JINJABOX_PAYLOAD_STORE:-$bin/run-payloads}
logs=$bin/run-logs
mkdir -p "$logs"

pids=()
cleanup() {
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

if (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null; then
	echo "run: something already listens on 127.0.0.1:$port (set TEMPORAL_PORT)" >&2
	exit 1
fi

"$temporal" server start-dev --headless --ip 127.0.0.1 --port "$port" \
	--ui-port $((port + 1000)) --log-level warn >"$logs/server.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
	if "$temporal" operator cluster health --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1; then break; fi
	sleep 0.2
done
"$temporal" operator cluster health --address "$TEMPORAL_ADDRESS" >/dev/null

export TEMPORAL_DEPLOYMENT_NAME=${TEMPORAL_DEPLOYMENT_NAME:-jinjabox}
export TEMPORAL_WORKER_BUILD_ID=${TEMPORAL_WORKER_BUILD_ID:-dev}
"$bin/worker" >"$logs/worker.log" 2>&1 &
pids+=($!)

# The server knows a version once its worker has polled; until it is
# current, the task queue's runs wait for unversioned workers.
set_current() {
	"$temporal" worker deployment set-current-version --address "$TEMPORAL_ADDRESS" --yes \
		--deployment-name "$TEMPORAL_DEPLOYMENT_NAME" --build-id "$TEMPORAL_WORKER_BUILD_ID" "$@"
}
current=
for _ in $(seq 1 150); do
	if set_current >/dev/null 2>&1; then current=1; break; fi
	sleep 0.2
done
[ -n "$current" ] || set_current >/dev/null # fails, saying why

"$bin/jinjabox" run "$method" "$inputs"
