#!/bin/sh
# PID 1's child (docker --init reaps): the X server and window manager for one sandbox.
# Runs as the non-root user with a read-only root; only /tmp and $HOME are writable.
set -eu
# sandboxd loads its modules while X starts; the host reaches it with `docker exec … socat`.
node /opt/sandboxd/dist/sandbox-images/desktop/sandboxd/src/main.js --listen /tmp/sandboxd.sock 2>/tmp/sandboxd.log &
Xvfb "$DISPLAY" -screen 0 "${SCREEN}x24" -nolisten tcp -ac +extension XTEST -ardelay 60000 >/tmp/xvfb.log 2>&1 &
for _ in $(seq 1 100); do
  xdpyinfo -display "$DISPLAY" >/dev/null 2>&1 && break
  sleep 0.02
done
openbox >/tmp/openbox.log 2>&1 &
touch /tmp/desktop-ready
wait
