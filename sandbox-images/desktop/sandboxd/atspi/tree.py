#!/usr/bin/python3
"""sandboxd's accessibility reader: JSON lines on stdin/stdout, one request at a time.

It asks each application's AT-SPI cache for all its objects in one D-Bus call (Cache.GetItems),
then the screen extents (and text of editable fields) of the showing ones in parallel, so a
page's tree costs a few round trips instead of several per node. The extents of the objects the
previous read found showing are asked together with the cache: on a screen that did not change
(a resolve right after a screenshot) the tree costs one round of calls, not two. What the cache
says now decides which objects are in the tree; a speculative extent is only the box of the same
object, asked at the same moment.
"""
import json
import sys
import time

import gi

gi.require_version('Atspi', '2.0')
from gi.repository import Atspi, Gio, GLib  # noqa: E402

SCREEN = 0  # ATSPI_COORD_TYPE_SCREEN
SHOWING = int(Atspi.StateType.SHOWING)
VISIBLE = int(Atspi.StateType.VISIBLE)
STATE_NAMES = {int(s): s.value_nick for s in Atspi.StateType.__enum_values__.values()}
VALUE_ROLES = {'entry', 'text', 'password text', 'spin button', 'combo box', 'terminal'}
CALL_MS = 3000


class Unavailable(Exception):
    pass


_bus = None


def bus():
    global _bus
    if _bus is not None and not _bus.is_closed():
        return _bus
    try:
        session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        reply = session.call_sync('org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus', 'GetAddress',
                                  None, GLib.VariantType('(s)'), 0, CALL_MS, None)
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        _bus = Gio.DBusConnection.new_for_address_sync(reply.unpack()[0], flags, None, None)
        # An application's bridge serves its cache only once some client listens for its events.
        _bus.call_sync('org.a11y.atspi.Registry', '/org/a11y/atspi/registry', 'org.a11y.atspi.Registry', 'RegisterEvent',
                       GLib.Variant('(sass)', ('object:children-changed', [], '')), None, 0, CALL_MS, None)
    except GLib.Error as error:
        raise Unavailable('no accessibility bus (%s)' % error.message)
    return _bus


def states_of(bits):
    out = []
    for word, value in enumerate(bits):
        for bit in range(32):
            if value & (1 << bit):
                name = STATE_NAMES.get(word * 32 + bit)
                if name:
                    out.append(name)
    return out


def showing(bits):
    return bool(bits and bits[0] & (1 << SHOWING) and bits[0] & (1 << VISIBLE))


ROOT = '/org/a11y/atspi/accessible/root'
# Cache.GetItems' reply: (object, application, parent, index, children, interfaces, name, role, description, states).
ITEMS = '(a((so)(so)(so)iiassusau))'
SHOWN = (1 << SHOWING) | (1 << VISIBLE)
COMPONENT = 'org.a11y.atspi.Component'


def ref_of(variant):
    return (variant.get_child_value(0).get_string(), variant.get_child_value(1).get_string())


def kept_items(reply):
    """GetItems' reply as the tuples `unpack` gives, for the root and the showing components only.
    PyGObject's generic `unpack` walks every value in Python (about 20 ms for a browser's 250
    objects, most of a tree read); this reads each object's states first and skips the rest."""
    array = reply.get_child_value(0)
    out = []
    for i in range(array.n_children()):
        item = array.get_child_value(i)
        ref = ref_of(item.get_child_value(0))
        bits = item.get_child_value(9)
        if ref[1] != ROOT:
            if bits.n_children() == 0 or bits.get_child_value(0).get_uint32() & SHOWN != SHOWN:
                continue
        ifaces = item.get_child_value(5).get_strv()
        if ref[1] != ROOT and COMPONENT not in ifaces:
            continue
        out.append((ref, ref_of(item.get_child_value(1)), ref_of(item.get_child_value(2)), item.get_child_value(3).get_int32(),
                    item.get_child_value(4).get_int32(), ifaces, item.get_child_value(6).get_string(),
                    item.get_child_value(7).get_uint32(), item.get_child_value(8).get_string(),
                    [bits.get_child_value(k).get_uint32() for k in range(bits.n_children())]))
    return (out,)


def parallel(conn, calls):
    """Runs D-Bus calls concurrently; returns each reply's value (GetItems' by `kept_items`) or None."""
    results = [None] * len(calls)
    if not calls:
        return results
    loop = GLib.MainLoop()
    pending = [len(calls)]

    def done(source, res, index):
        try:
            reply = source.call_finish(res)
            results[index] = kept_items(reply) if reply.get_type_string() == ITEMS else reply.unpack()
        except GLib.Error:
            results[index] = None
        pending[0] -= 1
        if pending[0] == 0:
            loop.quit()

    for index, (name, path, iface, method, args) in enumerate(calls):
        conn.call(name, path, iface, method, args, None, 0, CALL_MS, None, done, index)
    loop.run()
    return results


def extents_call(ref):
    return (ref[0], ref[1], 'org.a11y.atspi.Component', 'GetExtents', GLib.Variant('(u)', (SCREEN,)))


# The objects (bus, path) the last read found showing, whose extents the next read asks early.
_last_showing = []


def cached_items(conn, apps, early_refs):
    """Every application's cached objects (a bridge that was just woken gets a few short retries),
    and the extents of `early_refs` asked in the same round: {ref: reply or None}."""
    first = parallel(conn, [(name, '/org/a11y/atspi/cache', 'org.a11y.atspi.Cache', 'GetItems', None) for (name, _p) in apps]
                     + [extents_call(ref) for ref in early_refs])
    items, early = first[:len(apps)], dict(zip(early_refs, first[len(apps):]))
    for _attempt in range(10):
        missing = [i for i, reply in enumerate(items) if reply is None]
        if not missing:
            break
        time.sleep(0.05)
        again = parallel(conn, [(apps[i][0], '/org/a11y/atspi/cache', 'org.a11y.atspi.Cache', 'GetItems', None) for i in missing])
        for i, reply in zip(missing, again):
            items[i] = reply
    return items, early


def tree(values):
    conn = bus()
    apps = conn.call_sync('org.a11y.atspi.Registry', '/org/a11y/atspi/accessible/root',
                          'org.a11y.atspi.Accessible', 'GetChildren', None, None, 0, CALL_MS, None).unpack()[0]
    global _last_showing
    items, early = cached_items(conn, apps, _last_showing)
    nodes = []
    for (app_name, _path), reply in zip(apps, items):
        if reply is None:
            continue
        objects = reply[0]
        app_label = ''
        for obj in objects:
            if obj[1] == (app_name, _path) and obj[0][1] == '/org/a11y/atspi/accessible/root':
                app_label = obj[6]
        for (ref, _app, parent, _index, _count, ifaces, name, role, description, bits) in objects:
            if ref[1] == '/org/a11y/atspi/accessible/root':
                app_label = app_label or name
                continue
            if not showing(bits) or 'org.a11y.atspi.Component' not in ifaces:
                continue
            nodes.append({
                'id': ref[0] + ref[1],
                'parent': parent[0] + parent[1] if parent[1] != '/org/a11y/atspi/null' else None,
                'bus': ref[0], 'path': ref[1], 'app': app_name,
                'role': Atspi.role_get_name(Atspi.Role(role)) if role < int(Atspi.Role.LAST_DEFINED) else 'unknown',
                'name': name, 'description': description, 'states': states_of(bits),
                'text': 'org.a11y.atspi.Text' in ifaces,
            })
        for node in nodes:
            if node['app'] == app_name:
                node['appName'] = app_label
    _last_showing = [(n['bus'], n['path']) for n in nodes]
    late = [ref for ref in _last_showing if early.get(ref) is None]
    early.update(zip(late, parallel(conn, [extents_call(ref) for ref in late])))
    extents = [early[ref] for ref in _last_showing]
    wanted = [n for n in nodes if values and n['text'] and n['role'] in VALUE_ROLES]
    texts = parallel(conn, [(n['bus'], n['path'], 'org.a11y.atspi.Text', 'GetText', GLib.Variant('(ii)', (0, -1)))
                            for n in wanted])
    for node, text in zip(wanted, texts):
        if text is not None:
            node['value'] = text[0][:2000]
    out = []
    for node, ext in zip(nodes, extents):
        if ext is None:
            continue
        x, y, w, h = ext[0]
        if w <= 0 or h <= 0:
            continue
        entry = {'id': node['id'], 'app': node.get('appName') or node['app'], 'role': node['role'],
                 'name': node['name'], 'states': node['states'], 'bounds': {'x': x, 'y': y, 'width': w, 'height': h}}
        if node['parent']:
            entry['parent'] = node['parent']
        if node['description']:
            entry['description'] = node['description']
        if 'value' in node:
            entry['value'] = node['value']
        out.append(entry)
    return {'available': True, 'applications': len(apps), 'nodes': out}


def answer(request):
    try:
        return {'id': request.get('id'), 'result': tree(bool(request.get('values', True)))}
    except Unavailable as error:
        return {'id': request.get('id'), 'result': {'available': False, 'reason': str(error), 'applications': 0, 'nodes': []}}
    except Exception as error:  # a vanished application mid-walk, a D-Bus hiccup: the caller sees why
        global _bus
        _bus = None
        return {'id': request.get('id'), 'error': '%s: %s' % (type(error).__name__, error)}


for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    sys.stdout.write(json.dumps(answer(json.loads(line))) + '\n')
    sys.stdout.flush()
