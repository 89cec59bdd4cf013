#!/usr/bin/env bash
# Runs a command with DOCKER_HOST pointing at a throwaway Docker engine (Debian's docker.io)
# that has the local test image gpu-test/busybox:latest, then stops the engine by its PID.
# Needs root, docker.io and busybox-static. No registry is used: the image is a busybox rootfs.
# Usage: scripts/with-docker.sh <command...>
# The engine finds a stand-in nvidia-container-runtime-hook (scripts/docker-test) on its PATH, so
# it takes NVIDIA device requests as a GPU host's engine does; the hook logs each container's
# GPUs to $NVIDIA_HOOK_LOG (exported to the command).
# DOCKER_IPTABLES=on: the engine manages iptables as a production engine does (isolating
# bridges from each other); the host's rules and ip_forward are saved first and put back after.
set -euo pipefail
NAME=gpu-test-docker
SOCK=/run/$NAME.sock
PIDFILE=/run/$NAME.pid
DIR=$(mktemp -d)
DOCKERD_PID=
IPTABLES=${DOCKER_IPTABLES:-off}
IP_FORWARD=$(cat /proc/sys/net/ipv4/ip_forward)

cleanup() {
  if [ -n "$DOCKERD_PID" ]; then
    # Containers first, so dockerd does not wait on them and no shim outlives it.
    ids=$(docker -H "unix://$SOCK" ps -aq 2>/dev/null || true)
    [ -z "$ids" ] || docker -H "unix://$SOCK" rm -f $ids >/dev/null 2>&1 || true
    # Then networks (one per instance): each is a br-* bridge that outlives the engine.
    docker -H "unix://$SOCK" network prune -f >/dev/null 2>&1 || true
    # And the instances' data volumes, which outlive their containers by design.
    docker -H "unix://$SOCK" volume prune -f >/dev/null 2>&1 || true
    kill "$DOCKERD_PID" 2>/dev/null || true
    for _ in $(seq 1 300); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$DOCKERD_PID" 2>/dev/null || true
  fi
  ip link delete docker0 2>/dev/null || true
  # dockerd turns forwarding on (and with iptables, writes its chains): put the host back.
  echo "$IP_FORWARD" >/proc/sys/net/ipv4/ip_forward 2>/dev/null || true
  if [ "$IPTABLES" = on ] && [ -f "$DIR/iptables.rules" ]; then
    iptables-restore <"$DIR/iptables.rules" || echo "with-docker: could not restore iptables rules from $DIR/iptables.rules" >&2
    # A table that had nothing saved (nat, usually) is not touched by the restore: empty it.
    for table in filter nat mangle raw; do
      grep -q "^\*$table\$" "$DIR/iptables.rules" && continue
      iptables -t "$table" -F 2>/dev/null && iptables -t "$table" -X 2>/dev/null || true
    done
  fi
  rm -rf "$DIR" 2>/dev/null || true
}
trap cleanup EXIT

# One test engine at a time on this machine: they share the socket name and the docker0 bridge.
exec 9>"/run/$NAME.lock"
flock 9

for bin in dockerd docker busybox; do
  command -v "$bin" >/dev/null || { echo "with-docker: $bin not found (apt-get install docker.io busybox-static)" >&2; exit 1; }
done

if [ "$IPTABLES" = on ]; then
  command -v iptables-save >/dev/null || { echo "with-docker: DOCKER_IPTABLES=on needs iptables" >&2; exit 1; }
  iptables-save >"$DIR/iptables.rules"
  export DOCKER_TEST_IPTABLES=on
else
  IPTABLES=off
fi

HOOK_DIR=$(cd "$(dirname "$0")/docker-test" && pwd)
export NVIDIA_HOOK_LOG="$DIR/nvidia-hook.log"
: >"$NVIDIA_HOOK_LOG"
PATH="$HOOK_DIR:$PATH" dockerd --iptables="$([ "$IPTABLES" = on ] && echo true || echo false)" --storage-driver=vfs \
  --host "unix://$SOCK" --pidfile "$PIDFILE" \
  --data-root "$DIR/data" --exec-root "$DIR/exec" >"$DIR/dockerd.log" 2>&1 &
DOCKERD_PID=$!
export DOCKER_HOST="unix://$SOCK"

for _ in $(seq 1 100); do
  docker version >/dev/null 2>&1 && break
  kill -0 "$DOCKERD_PID" 2>/dev/null || { cat "$DIR/dockerd.log" >&2; echo "with-docker: dockerd exited" >&2; exit 1; }
  sleep 0.2
done
docker version >/dev/null || { tail -n 30 "$DIR/dockerd.log" >&2; exit 1; }

# The test image: busybox with its applet links, /tmp, a root home and /etc/ssh (where the
# platform writes sshd's password switch, as in an image with sshd); `sleep` as command.
ROOTFS="$DIR/rootfs"
mkdir -p "$ROOTFS/bin" "$ROOTFS/tmp" "$ROOTFS/root" "$ROOTFS/etc/ssh"
cp "$(command -v busybox)" "$ROOTFS/bin/busybox"
for applet in $("$ROOTFS/bin/busybox" --list); do
  [ "$applet" = busybox ] || ln -sf busybox "$ROOTFS/bin/$applet"
done
echo 'root:x:0:0:root:/root:/bin/sh' >"$ROOTFS/etc/passwd"
tar -C "$ROOTFS" -c . | docker import -c 'CMD ["/bin/sleep","3600"]' -c 'ENV PATH=/bin' - gpu-test/busybox:latest >/dev/null
echo "Docker $(docker version --format '{{.Server.Version}}') on $DOCKER_HOST with gpu-test/busybox:latest"
"$@"
