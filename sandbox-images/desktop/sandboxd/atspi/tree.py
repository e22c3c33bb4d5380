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
    """GetItems' reply as the tuples `unpack` gives, for the root and the showing components only,
    and the set of every cached object.
    PyGObject's generic `unpack` walks every value in Python (about 20 ms for a browser's 250
    objects, most of a tree read); this reads each object's states first and skips the rest."""
    array = reply.get_child_value(0)
    out = []
    cached = set()
    for i in range(array.n_children()):
        item = array.get_child_value(i)
        ref = ref_of(item.get_child_value(0))
        cached.add(ref)
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
    return (out, cached)


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


def children_call(ref):
    return (ref[0], ref[1], 'org.a11y.atspi.Accessible', 'GetChildren', None)


def live_calls(ref):
    """What a read asks of each showing object itself: its box, and its children as they are now."""
    return [extents_call(ref), children_call(ref)]


# The objects (bus, path) the last read found showing, whose boxes and children the next read asks early.
_last_showing = []


def cached_items(conn, apps, early_refs):
    """Every application's cached objects (a bridge that was just woken gets a few short retries),
    and `live_calls` of `early_refs` asked in the same round: {ref: (extents, children)}."""
    first = parallel(conn, [(name, '/org/a11y/atspi/cache', 'org.a11y.atspi.Cache', 'GetItems', None) for (name, _p) in apps]
                     + [call for ref in early_refs for call in live_calls(ref)])
    items, rest = first[:len(apps)], first[len(apps):]
    early = {ref: (rest[2 * i], rest[2 * i + 1]) for i, ref in enumerate(early_refs)}
    for _attempt in range(10):
        missing = [i for i, reply in enumerate(items) if reply is None]
        if not missing:
            break
        time.sleep(0.05)
        again = parallel(conn, [(apps[i][0], '/org/a11y/atspi/cache', 'org.a11y.atspi.Cache', 'GetItems', None) for i in missing])
        for i, reply in zip(missing, again):
            items[i] = reply
    return items, early


def live(conn, refs):
    """`live_calls` of each ref in one round: {ref: (extents, children)}."""
    replies = parallel(conn, [call for ref in refs for call in live_calls(ref)])
    return {ref: (replies[2 * i], replies[2 * i + 1]) for i, ref in enumerate(refs)}


def role_name(role):
    return Atspi.role_get_name(Atspi.Role(role)) if role < int(Atspi.Role.LAST_DEFINED) else 'unknown'


def uncached(conn, parents, cached, app_of, nodes, boxes):
    """Objects the bridge's cache lacks, found by walking the live children of showing objects.
    Chromium leaves a page it navigated to out of its cache (only its first page is cached), so
    without this a page after a link or a reload has no tree. One round of calls per level."""
    frontier = [(child, parent) for parent, children in parents for child in children if child not in cached]
    for _level in range(40):
        if not frontier:
            return
        props = lambda ref, name: (ref[0], ref[1], 'org.freedesktop.DBus.Properties', 'Get',
                                   GLib.Variant('(ss)', ('org.a11y.atspi.Accessible', name)))
        asks = [[(r[0], r[1], 'org.a11y.atspi.Accessible', 'GetRole', None),
                 (r[0], r[1], 'org.a11y.atspi.Accessible', 'GetState', None),
                 (r[0], r[1], 'org.a11y.atspi.Accessible', 'GetInterfaces', None),
                 props(r, 'Name'), props(r, 'Description')] + live_calls(r) for r, _p in frontier]
        replies = parallel(conn, [call for ask in asks for call in ask])
        step = len(asks[0])
        next_frontier = []
        for i, (ref, parent) in enumerate(frontier):
            role, state, ifaces, name, description, extents, children = replies[i * step:(i + 1) * step]
            cached.add(ref)
            if None in (role, state, ifaces) or not showing(state[0]):
                continue
            if COMPONENT in ifaces[0]:
                nodes.append({
                    'id': ref[0] + ref[1], 'parent': parent[0] + parent[1], 'bus': ref[0], 'path': ref[1],
                    'app': app_of.get(parent, ref[0]), 'role': role_name(role[0]),
                    'name': name[0] if name else '', 'description': description[0] if description else '',
                    'states': states_of(state[0]), 'text': 'org.a11y.atspi.Text' in ifaces[0],
                })
                boxes[ref] = extents
            app_of[ref] = app_of.get(parent, ref[0])
            next_frontier += [(child, ref) for child in (children[0] if children else []) if child not in cached]
        frontier = next_frontier


def tree(values):
    conn = bus()
    apps = conn.call_sync('org.a11y.atspi.Registry', '/org/a11y/atspi/accessible/root',
                          'org.a11y.atspi.Accessible', 'GetChildren', None, None, 0, CALL_MS, None).unpack()[0]
    global _last_showing
    items, early = cached_items(conn, apps, _last_showing)
    nodes = []
    cached = set()
    for (app_name, _path), reply in zip(apps, items):
        if reply is None:
            continue
        objects, refs = reply
        cached |= refs
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
                'role': role_name(role),
                'name': name, 'description': description, 'states': states_of(bits),
                'text': 'org.a11y.atspi.Text' in ifaces,
            })
        for node in nodes:
            if node['app'] == app_name:
                node['appName'] = app_label
    showing_refs = [(n['bus'], n['path']) for n in nodes]
    late = [ref for ref in showing_refs if early.get(ref, (None, None))[0] is None]
    early.update(live(conn, late))
    boxes = {ref: early[ref][0] for ref in showing_refs}
    app_of = {(n['bus'], n['path']): n['app'] for n in nodes}
    parents = [(ref, early[ref][1][0]) for ref in showing_refs if early[ref][1]]
    uncached(conn, parents, cached, app_of, nodes, boxes)
    labels = {n['app']: n['appName'] for n in nodes if n.get('appName')}
    for node in nodes:
        node.setdefault('appName', labels.get(node['app'], ''))
    _last_showing = [(n['bus'], n['path']) for n in nodes]
    extents = [boxes.get(ref) for ref in _last_showing]
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
