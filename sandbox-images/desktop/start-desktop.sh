#!/bin/sh
# PID 1's child (docker --init reaps): the X server and window manager for one sandbox.
# Runs as the non-root user with a read-only root; only /tmp and $HOME are writable.
set -eu
# The session bus first: sandboxd's accessibility reader and every app it starts find it there.
mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
dbus-daemon --session --address="$DBUS_SESSION_BUS_ADDRESS" --nofork --nopidfile >/tmp/dbus.log 2>&1 &
# sandboxd loads its modules while X starts; the host reaches it with `docker exec … socat`.
node /opt/sandboxd/dist/sandbox-images/desktop/sandboxd/src/main.js --listen /tmp/sandboxd.sock 2>/tmp/sandboxd.log &
# -noreset: an X server resets when its last client leaves, and the readiness probes below are
# clients; a reset while openbox connects killed it, leaving a desktop with no window manager.
Xvfb "$DISPLAY" -screen 0 "${SCREEN}x24" -nolisten tcp -ac -noreset +extension XTEST -ardelay 60000 >/tmp/xvfb.log 2>&1 &
# Each wait below is bounded by the host's readiness timeout, not here: on a loaded machine X, the
# window manager or the bus can take seconds, and a desktop that gave up waiting is no desktop
# (openbox started before X answers exits, and a click on an unmanaged screen changes nothing).
until xdpyinfo -display "$DISPLAY" >/dev/null 2>&1; do sleep 0.05; done
openbox >/tmp/openbox.log 2>&1 &
# Ready only once the window manager manages the screen (EWMH: it names itself on the root window):
# before that a click on the desktop opens no menu and a new window is not placed or maximized.
until xprop -display "$DISPLAY" -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'; do sleep 0.05; done
# The accessibility bus (Chromium and GTK apps publish their trees on it; a11y.tree reads them).
/usr/libexec/at-spi-bus-launcher --launch-immediately >/tmp/atspi.log 2>&1 &
# Ready only once it answers: Chromium decides at launch whether to publish its tree.
until dbus-send --session --dest=org.a11y.Bus --print-reply /org/a11y/bus org.a11y.Bus.GetAddress >/dev/null 2>&1; do sleep 0.05; done
touch /tmp/desktop-ready
wait
