#!/usr/bin/env bash
# Installs redis-server (Debian package) if missing, starts it on 127.0.0.1:6379 unless one
# already answers there, and waits until `redis-cli ping` says PONG. Idempotent: run it twice
# and the second run only checks. The RedisStore tests read TOF_REDIS_URL (default
# redis://127.0.0.1:6379). Stop it with: redis-cli -p 6379 shutdown nosave
set -euo pipefail

PORT="${TOF_REDIS_PORT:-6379}"

if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq redis-server >/dev/null
fi

if [ "$(redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null || true)" != "PONG" ]; then
    # No snapshots or append-only file: test data only, nothing written to the disk.
    redis-server --bind 127.0.0.1 --port "$PORT" --daemonize yes \
        --save '' --appendonly no --dir /tmp --logfile /tmp/tof-redis-"$PORT".log
fi

for _ in $(seq 1 100); do
    if [ "$(redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null || true)" = "PONG" ]; then
        echo "redis-server answers on 127.0.0.1:$PORT"
        exit 0
    fi
    sleep 0.1
done
echo "redis-server did not answer on 127.0.0.1:$PORT within 10 s (log: /tmp/tof-redis-$PORT.log)" >&2
exit 1
