"""Option-aware reference for Classic Pachisi (from docs/rules/pachisi.md, CLS-*, C-*)."""
from math import comb

HOME = 85
DEFAULT = dict(seats=4, throw_table=[25, 10, 2, 3, 4, 5, 6], shell_probability=0.5,
               graces=[6, 10, 25], castle_from_outer_end=4, first_piece_in_play=True,
               extra_throw_on_grace=True, units=True, allow_dead_end=False, max_rolls=6000)
O = dict(DEFAULT)
CASTLES = set()
DEAD = set()


def configure(**opts):
    O.clear(); O.update(DEFAULT); O.update(opts)
    CASTLES.clear()
    n = O['castle_from_outer_end']
    for k in range(4):
        CASTLES.update({17 * k, (17 * k + n) % 68, (17 * k + 17 - n) % 68})
    reach = {0}
    for d in range(1, 85):
        if any(d - v in reach for v in O['throw_table'] if v <= d):
            reach.add(d)
    DEAD.clear()
    DEAD.update(p for p in range(1, 85) if (HOME - p) not in reach)


configure()


def valid(opts):
    o = dict(DEFAULT); o.update(opts)
    if o['seats'] not in (2, 4):
        return False
    t = o['throw_table']
    if len(t) != 7 or any(v <= 0 or v > 84 for v in t):
        return False
    reach = {0}
    for d in range(1, 85):
        if any(d - v in reach for v in t if v <= d):
            reach.add(d)
    if 84 not in reach:
        return False
    if not (0.05 <= o['shell_probability'] <= 0.95):
        return False
    g = o['graces']
    if not g or any(v not in t for v in g) or len(set(g)) != len(g):
        return False
    if not (1 <= o['castle_from_outer_end'] <= 8):
        return False
    if not (1 <= o['max_rolls'] <= 100000):
        return False
    return True


def parse(pos):
    t, thr, body = pos.split(':')
    cols = tuple(tuple(sorted(int(x) for x in cs.split(','))) for cs in body.split('/'))
    return int(t), (None if thr == '-' else int(thr)), cols


def fmt(cols):
    return '/'.join(','.join(str(p) for p in sorted(c, reverse=True)) for c in cols)


def loop_sq(c, p):
    if 9 <= p <= 77:
        return (17 * c + p - 9) % 68
    return None


def outcomes():
    p = O['shell_probability']
    return [(up, comb(6, up) * p ** up * (1 - p) ** (6 - up)) for up in range(7)]


def plays(cols, c, v):
    res = {cols}
    if v in O['graces'] and 0 in cols[c]:
        nc = [list(x) for x in cols]
        nc[c][nc[c].index(0)] = 1
        res.add(tuple(tuple(sorted(x)) for x in nc))
    for p in sorted(set(p for p in cols[c] if 1 <= p < HOME)):
        m = cols[c].count(p)
        sizes = [1] if (p == 1 or not O['units']) else range(1, m + 1)
        q = p + v
        if q > HOME:
            continue
        if q in DEAD and not O['allow_dead_end']:
            continue
        for k in sizes:
            nc = [list(x) for x in cols]
            s = loop_sq(c, q)
            if s is not None:
                opp = [(oc, i) for oc in range(4) if oc % 2 != c % 2
                       for i, pp in enumerate(cols[oc]) if loop_sq(oc, pp) == s]
                if opp:
                    if s in CASTLES or k < len(opp):
                        continue
                    for oc, i in opp:
                        nc[oc][i] = 0
            moved = 0
            for i, pp in enumerate(nc[c]):
                if pp == p and moved < k:
                    nc[c][i] = q
                    moved += 1
            res.add(tuple(tuple(sorted(x)) for x in nc))
    return res


def all_home(ps):
    return all(p == HOME for p in ps)


def over(cols):
    return all_home(cols[0]) and all_home(cols[2]) or all_home(cols[1]) and all_home(cols[3])


def next_turn(t, cols, v):
    if v in O['graces'] and O['extra_throw_on_grace'] and not all_home(cols[t]):
        return t
    n = (t + 1) % 4
    while all_home(cols[n]):
        n = (n + 1) % 4
    return n


def result_positions(pos):
    t, up, cols = parse(pos)
    v = O['throw_table'][up]
    out = set()
    for nc in plays(cols, t, v):
        out.add('OVER ' + fmt(nc) if over(nc) else '%d:-:%s' % (next_turn(t, nc, v), fmt(nc)))
    return out


def start():
    f = 1 if O['first_piece_in_play'] else 0
    return '0:-:' + '/'.join('%d,0,0,0' % f for _ in range(4))
