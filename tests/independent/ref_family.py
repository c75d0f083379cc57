"""Option-aware reference for Family Pachisi, written from docs/rules/pachisi-family.md and
docs/RULES.md (FAM-*, F-*). A gate's 7 on doubles is read value by value (F-D).

Piece encoding: -1 'n', 0 'x', 1..76 positions, 77 'h'.
"""
HOME = 77
DEFAULT = dict(seats=4, teams=True, sum_as_one_move=True, one_piece_both_dice=True,
               higher_die_first=True, bottom_faces=True, doubles_restricted_until_all_played=True,
               gate_moves_with_doubles=True, six_five_enters_and_moves=True, entry_tries=3,
               doubles_extra_roll=True, sum_of_five_enters=False, compulsory_capture=False,
               max_rolls=2000)

O = dict(DEFAULT)
SIDE = [0, 1, 2, 3]
COND = {}
SAFE = set()
for s in range(4):
    SAFE.add((17 * s + 7) % 68)
    SAFE.add((17 * s + 12) % 68)


def configure(**opts):
    global SIDE, COND
    O.clear()
    O.update(DEFAULT)
    O.update(opts)
    if O['seats'] < 4 and 'teams' not in opts:
        O['teams'] = False
    n = O['seats']
    SIDE = [0, 2] if n == 2 else list(range(n))
    COND = {17 * s: -1 for s in range(4)}
    for c in range(n):
        COND[17 * SIDE[c]] = c


configure()


def parse(pos):
    head, body = pos.split(' ')
    t, tries, roll = head.split(':')
    cols = []
    for cs in body.split('/'):
        ps = []
        for tk in cs.split(','):
            ps.append({'n': -1, 'x': 0, 'h': HOME}.get(tk) if tk in 'nxh' else int(tk))
        cols.append(tuple(sorted(ps)))
    dice = None if roll == '-' else tuple(int(x) for x in roll.split('-'))
    return int(t), int(tries), dice, tuple(cols)


def tok(p):
    return {-1: 'n', 0: 'x', HOME: 'h'}.get(p, str(p))


def fmt_pieces(cols):
    return '/'.join(','.join(tok(p) for p in sorted(c)) for c in cols)


def absq(c, p):
    return (17 * SIDE[c] + p - 1) % 68


def partner(c):
    return (c + 2) % 4 if O['teams'] else None


def occupancy(cols):
    occ, stretch = {}, {}
    for c, ps in enumerate(cols):
        for p in ps:
            if 1 <= p <= 69:
                s = absq(c, p)
                if s in occ:
                    oc, n = occ[s]
                    assert oc == c
                    occ[s] = (c, n + 1)
                else:
                    occ[s] = (c, 1)
            elif 70 <= p <= 76:
                stretch[(c, p)] = stretch.get((c, p), 0) + 1
    return occ, stretch


def path_clear(cols, c, p, q):
    occ, stretch = occupancy(cols)
    for r in range(p + 1, q):
        if r <= 69:
            o = occ.get(absq(c, r))
            if o and o[1] >= 2:
                return False
        elif r <= 76:
            if stretch.get((c, r), 0) >= 2:
                return False
    return True


def landing(cols, c, q):
    if q == HOME:
        return (None,)
    if q > HOME:
        return None
    occ, stretch = occupancy(cols)
    if q >= 70:
        return (None,) if stretch.get((c, q), 0) < 2 else None
    s = absq(c, q)
    o = occ.get(s)
    if not o:
        return (None,)
    oc, n = o
    if oc == c:
        return (None,) if n < 2 else None
    if oc == partner(c):
        return None
    if n >= 2:
        return None
    if s in SAFE:
        return None
    if s in COND and COND[s] != c:
        return None
    return (oc,)


def do_move(cols, c, i, q, victim):
    cols = [list(x) for x in cols]
    cols[c][i] = q
    if victim is not None:
        s = absq(c, q)
        for j, p in enumerate(cols[victim]):
            if 1 <= p <= 69 and absq(victim, p) == s:
                cols[victim][j] = 0
                break
    return tuple(tuple(x) for x in cols)


def single_steps(cols, c, v, banned):
    for i, p in enumerate(cols[c]):
        if i in banned:
            continue
        if p <= 0:
            if v != 5:
                continue
            q = 1
        elif p >= HOME:
            continue
        else:
            q = p + v
            if q > HOME or not path_clear(cols, c, p, q):
                continue
        yield from land(cols, c, i, q)


def sum_moves(cols, c, total, banned):
    if not O['sum_as_one_move']:
        return
    for i, p in enumerate(cols[c]):
        if i in banned or p <= 0 or p >= HOME:
            continue
        q = p + total
        if q > HOME or not path_clear(cols, c, p, q):
            continue
        yield from land(cols, c, i, q)


def land(cols, c, i, q):
    """Piece i of colour c finishing its move on q, if it may: (position, piece, captured)."""
    L = landing(cols, c, q)
    if L is not None:
        yield do_move(cols, c, i, q, L[0]), i, L[0] is not None


def enter_moves(cols, c, banned):
    """enter one piece (for sum_of_five_enters)"""
    for i, p in enumerate(cols[c]):
        if i in banned or p > 0:
            continue
        L = landing(cols, c, 1)
        if L is None:
            continue
        yield do_move(cols, c, i, 1, L[0]), i, L[0] is not None


def canon(cols):
    return tuple(tuple(sorted(x)) for x in cols)


def in_play(ps):
    return any(1 <= p <= 76 for p in ps)


def captures(before, after, c):
    nb = sum(p == 0 for k, cs in enumerate(before) if k != c for p in cs)
    na = sum(p == 0 for k, cs in enumerate(after) if k != c for p in cs)
    return na > nb


def playing_colour(t, cols):
    if O['teams'] and all(p == HOME for p in cols[t]):
        return partner(t)
    return t


def plays_nondoubles(cols, c, H, L):
    """returns {canon: used}"""
    two = set()
    one = set()
    orders = [(H, L)] if O['higher_die_first'] else [(H, L), (L, H)]
    for a, b in orders:
        for nc, i, cap in sum_moves(cols, c, a + b, frozenset()):
            two.add(canon(nc))
        aonly = set()
        for nc, i, cap in single_steps(cols, c, a, frozenset()):
            aonly.add(canon(nc))
            ban = frozenset([i]) if (cap or not O['one_piece_both_dice']) else frozenset()
            for nc2, j, cap2 in single_steps(nc, c, b, ban):
                two.add(canon(nc2))
        one |= aonly
        if not O['higher_die_first']:
            continue
        if not aonly:
            one |= set(canon(nc) for nc, i, cap in single_steps(cols, c, b, frozenset()))
    if O['sum_of_five_enters'] and H + L == 5:
        for nc, i, cap in enter_moves(cols, c, frozenset()):
            two.add(canon(nc))
    if O['six_five_enters_and_moves'] and (H, L) == (6, 5) and not in_play(cols[c]):
        for i, p in enumerate(cols[c]):
            if p <= 0:
                Lnd = landing(cols, c, 1)
                if Lnd is None or Lnd[0] is not None:
                    continue
                nc = do_move(cols, c, i, 1, None)
                if not path_clear(nc, c, 1, 7):
                    continue
                L2 = landing(nc, c, 7)
                if L2 is None:
                    continue
                two.add(canon(do_move(nc, c, i, 7, L2[0])))
    if two:
        return two
    return one


def seq(cols, c, vals, idx, frozen, pairmoved, used, out, stop_at, extra_default):
    """vals indices pair as (0,1),(2,3). frozen: captured pieces. pairmoved: pieces that took a
    single value of the current pair (banned from the 2nd value when one_piece_both_dice off)."""
    if stop_at is not None and idx == stop_at:
        if any(p == -1 for p in cols[c]):
            out.add((canon(cols), used, False))
            return
        extra_default = O['doubles_extra_roll']
    if idx >= len(vals):
        out.add((canon(cols), used, extra_default))
        return
    v = vals[idx]
    if idx % 2 == 0:
        pairmoved = frozenset()
    moved = False
    ban = frozen  # F-D: one piece may take several values on doubles, whatever one_piece_both_dice
    for nc, i, cap in single_steps(cols, c, v, ban):
        moved = True
        seq(nc, c, vals, idx + 1, frozen | {i} if cap else frozen, pairmoved | {i}, used + 1, out,
            stop_at, extra_default)
    if idx % 2 == 0 and idx + 1 < len(vals):
        for nc, i, cap in sum_moves(cols, c, 2 * v, frozen):
            moved = True
            seq(nc, c, vals, idx + 2, frozen | {i} if cap else frozen, frozenset(), used + 2, out,
                stop_at, extra_default)
    if not moved:
        seq(cols, c, vals, idx + 1, frozen, pairmoved, used, out, stop_at, extra_default)


def plays_doubles(cols, c, d):
    """returns {canon: set(extra flags)}"""
    if O['bottom_faces']:
        h = max(d, 7 - d)
        l = 7 - h
        vals = [h, h, l, l]
    else:
        vals = [d, d]
    restricted = O['doubles_restricted_until_all_played'] and any(p == -1 for p in cols[c])
    out = set()
    if restricted:
        seq(cols, c, vals, 0, frozenset(), frozenset(), 0, out, 2, False)
    else:
        seq(cols, c, vals, 0, frozenset(), frozenset(), 0, out, None, O['doubles_extra_roll'])
    mx = max((u for _, u, _ in out), default=0)
    if mx == 0:
        return {}
    best = {}
    for cc, u, extra in out:
        if u == mx:
            best.setdefault(cc, set()).add(extra)
    return best


def legal(pos):
    t, tries, dice, cols = parse(pos)
    c = playing_colour(t, cols)
    a, b = dice
    if a != b:
        res = {p: {False} for p in plays_nondoubles(cols, c, max(a, b), min(a, b))}
    else:
        res = plays_doubles(cols, c, a)
    if O['compulsory_capture']:
        capt = {k: v for k, v in res.items() if captures(cols, k, c)}
        if capt:
            res = capt
    return res, c


def over(cols):
    if O['teams']:
        return any(all(all(p == HOME for p in cols[k]) for k in team) for team in [(0, 2), (1, 3)])
    return any(all(p == HOME for p in cols[k]) for k in range(len(cols)))


def result_positions(pos):
    t, tries, dice, cols = parse(pos)
    plays, c = legal(pos)
    n = O['seats']
    out = set()
    for cc, extras in plays.items():
        for extra in extras:
            if over(cc):
                out.add('OVER ' + fmt_pieces(cc))
                continue
            nt = t if extra else (t + 1) % n
            out.add('%d:0:- %s' % (nt, fmt_pieces(cc)))
    return out


def forfeit_position(pos):
    t, tries, dice, cols = parse(pos)
    c = playing_colour(t, cols)
    n = O['seats']
    doubles = dice[0] == dice[1]
    restricted = O['doubles_restricted_until_all_played'] and any(p == -1 for p in cols[c])
    extra = doubles and not restricted and O['doubles_extra_roll']
    if not in_play(cols[c]):
        if tries + 1 < O['entry_tries']:
            return '%d:%d:- %s' % (t, tries + 1, fmt_pieces(cols))
        if extra:
            return '%d:%d:- %s' % (t, tries, fmt_pieces(cols))
        return '%d:0:- %s' % ((t + 1) % n, fmt_pieces(cols))
    if extra:
        return '%d:0:- %s' % (t, fmt_pieces(cols))
    return '%d:0:- %s' % ((t + 1) % n, fmt_pieces(cols))
