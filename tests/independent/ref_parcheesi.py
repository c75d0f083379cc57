"""Independent reference enumerator for pachisi-online (Parcheesi rule system) written from
docs/RULES.md (ONL-*, PAR-*, O-*, P-*) and docs/rules/{pachisi-online,parcheesi}.md option docs.

A position: dict with
  seats: n, pieces: {seat: [(pos, age), ...]}, turn, doubles
Options: dict as Rules.options.
"""
import itertools

SAFE = set()
for k in range(4):
    E = 17 * k
    SAFE |= {E % 68, (E + 7) % 68, (E + 12) % 68}


def side(seat, nseats):
    return [0, 2][seat] if nseats == 2 else seat


def loc(seat, pos, nseats):
    """Location key of a seat-relative position."""
    E = 17 * side(seat, nseats)
    if pos == 0:
        return ('nest', seat)
    if 1 <= pos <= 64:
        return ('t', (E + pos - 1) % 68)
    if 65 <= pos <= 71:
        return ('h', seat, pos)
    if pos == 72:
        return ('home', seat)
    if 73 <= pos <= 76:
        return ('t', (E + pos - 9) % 68)
    raise ValueError(pos)


def next_pos(pos, opt):
    if 1 <= pos <= 63:
        return [pos + 1]
    if pos == 64:
        return [65] + ([73] if opt['go_round_again'] else [])
    if 65 <= pos <= 71:
        return [pos + 1]
    if 73 <= pos <= 75:
        return [pos + 1]
    if pos == 76:
        return [1]
    return []


def routes(pos, v, opt):
    """All step-by-step routes of v squares: list of lists of positions (excluding start)."""
    out = []

    def rec(p, left, path):
        if left == 0:
            out.append(path)
            return
        for q in next_pos(p, opt):
            rec(q, left - 1, path + [q])
    rec(pos, v, [])
    return out


def steps_left(pos):
    if 1 <= pos <= 72:
        return 72 - pos
    if 73 <= pos <= 76:
        return (77 - pos) + 71
    return None


# ---------------------------------------------------------------- state
# Internal state: tuple over seats of sorted tuples of (pos, age, grp) ; grp = P-D group id or -1


class Ctx:
    def __init__(self, opt, nseats, mover):
        self.opt = opt
        self.n = nseats
        self.s = mover
        self.home_cap = None  # filled below
        o = opt
        self.cap = o['max_pieces_per_square'] if o['blockades'] else 1
        # home path capacity: P-J says at most two (with blockades); 1 without blockades
        self.hcap = HOME_PATH_CAP(o)

    def occupancy(self, st):
        occ = {}
        for seat in range(self.n):
            for (p, a, g) in st[seat]:
                if p == 0:
                    continue
                L = loc(seat, p, self.n)
                if L[0] == 'home':
                    continue
                occ.setdefault(L, {}).setdefault(seat, []).append((p, a, g))
        return occ


def HOME_PATH_CAP(o):
    if not o['blockades']:
        return 1
    return HOME_CAP_MODE(o)


def HOME_CAP_MODE(o):
    return 2 if HOME_CAP_SETTING == 'two' else o['max_pieces_per_square']


HOME_CAP_SETTING = 'max'  # 'two' or 'max'


def try_step(ctx, st, piece, dest_routes, entering, earn_ok):
    """Yield (new_state, captured_count, reached_home) for moving `piece` (pos,age,grp) of the mover
    along each route. dest_routes: list of routes (lists of positions)."""
    o = ctx.opt
    s = ctx.s
    n = ctx.n
    occ = ctx.occupancy(st)
    results = []
    for route in dest_routes:
        ok = True
        # passing: intermediate squares must hold no blockade (2+ pieces of one seat)
        for q in route[:-1]:
            L = loc(s, q, n)
            if L[0] == 'home':
                ok = False
                break
            for seat, lst in occ.get(L, {}).items():
                cnt = len(lst)
                if seat == s and piece[0] != 0 and loc(s, piece[0], n) == L:
                    cnt -= 1  # the mover itself (cannot happen: route never revisits start)
                if cnt >= 2:
                    ok = False
            if not ok:
                break
        if not ok:
            continue
        dest = route[-1]
        L = loc(s, dest, n)
        capture_seat = None
        if L[0] != 'home':
            here = occ.get(L, {})
            own = len(here.get(s, []))
            if L[0] == 'h':
                if own + 1 > ctx.hcap:
                    continue
            else:
                if own + 1 > ctx.cap:
                    continue
            if L[0] == 't':
                opps = {seat: lst for seat, lst in here.items() if seat != s}
                if opps:
                    if any(len(l) >= 2 for l in opps.values()):
                        continue
                    safe = o['safe_squares'] and L[1] in SAFE
                    if safe:
                        if entering and (o['entry_capture'] or not o['capture']):
                            if o['capture']:
                                if len(opps) != 1:
                                    continue
                                capture_seat = next(iter(opps))
                            # capture off: share
                        else:
                            continue
                    else:
                        if o['capture']:
                            if len(opps) != 1:
                                continue
                            capture_seat = next(iter(opps))
        # build new state
        new = [list(x) for x in st]
        lst = new[s]
        lst.remove(piece)
        src = piece[0]
        # age bookkeeping: piece leaving: if one own piece left at source, its age -> 0
        if src != 0:
            Ls = loc(s, src, n)
            rem = [i for i, q in enumerate(lst) if q[0] != 0 and loc(s, q[0], n) == Ls]
            if len(rem) == 1 and Ls[0] != 'home':
                i = rem[0]
                lst[i] = (lst[i][0], 0, lst[i][2])
        # landing age
        age = 0
        if L[0] != 'home':
            same = [q for q in lst if q[0] != 0 and loc(s, q[0], n) == L]
            if same:
                age = same[0][1]
        lst.append((dest, age, piece[2]))
        cap = 0
        if capture_seat is not None:
            ol = new[capture_seat]
            for i, q in enumerate(ol):
                if q[0] != 0 and loc(capture_seat, q[0], n) == L:
                    ol[i] = (0, 0, -1)
                    cap += 1
        new = tuple(tuple(sorted(x)) for x in new)
        results.append((new, cap, dest == 72))
    return results


def roll_values(st, seat, d1, d2, opt):
    if d1 != d2:
        return (d1, d2)
    if opt['doubles_bottom_faces'] and all(p != 0 for (p, a, g) in st[seat]):
        return (d1, d1, 7 - d1, 7 - d1)
    return (d1, d1)


def remove_vals(left, vals):
    l = list(left)
    for v in vals:
        l.remove(v)
    return tuple(sorted(l, reverse=True))


def enumerate_plays(ctx, st0, values):
    """Return list of complete candidate plays: (final_state, dice_vals_used, dice_pips,
    bonus_count, bonus_pips, dicepart_state). With pass_allowed: every node."""
    o = ctx.opt
    s = ctx.s
    memo = {}
    earn_bonus_cap = o['capture'] and o['capture_bonus'] > 0

    def bonuses_for(cap, home, is_bonus):
        out = []
        if is_bonus and not o['bonuses_chain']:
            return out
        if cap and earn_bonus_cap:
            out += [o['capture_bonus']] * cap
        if home and o['home_bonus'] > 0:
            out.append(o['home_bonus'])
        return out

    def die_children(st, left):
        ch = []
        own = st[s]
        distinct = sorted(set(own))
        for v in sorted(set(left), reverse=True):
            nl = remove_vals(left, [v])
            if v == 5:
                nests = [q for q in distinct if q[0] == 0]
                for q in nests:
                    for (ns, cap, home) in try_step(ctx, st, q, [[1]], True, True):
                        ch.append((ns, nl, bonuses_for(cap, home, False)))
            for q in distinct:
                if q[0] == 0 or q[0] == 72:
                    continue
                for (ns, cap, home) in try_step(ctx, st, q, routes(q[0], v, o), False, True):
                    ch.append((ns, nl, bonuses_for(cap, home, False)))
        if o['enter_with_sum'] and 5 not in left:
            pairs = set()
            for a, b in itertools.combinations(left, 2):
                if a + b == 5:
                    pairs.add((max(a, b), min(a, b)))
            for (a, b) in pairs:
                nl = remove_vals(left, [a, b])
                for q in [q for q in distinct if q[0] == 0]:
                    for (ns, cap, home) in try_step(ctx, st, q, [[1]], True, True):
                        ch.append((ns, nl, bonuses_for(cap, home, False)))
        return ch

    def bonus_children(st, pending):
        ch = []
        distinct = sorted(set(st[s]))
        for b in sorted(set(pending), reverse=True):
            np_ = list(pending)
            np_.remove(b)
            for q in distinct:
                if q[0] == 0 or q[0] == 72:
                    continue
                for (ns, cap, home) in try_step(ctx, st, q, routes(q[0], b, o), False, True):
                    ch.append((ns, b, tuple(sorted(np_ + bonuses_for(cap, home, True)))))
        return ch

    def pd_valid(st):
        if not o['blockade_no_joint_move']:
            return True
        seen = {}
        for (p, a, g) in st[s]:
            if g < 0 or p == 72 or p == 0:
                continue
            L = loc(s, p, ctx.n)
            if (g, L) in seen and L != GROUP_LOC[g]:
                return False
            seen[(g, L)] = 1
        return True

    results_all = []

    def rec(st, left, pending, started, bc, bp, dpart):
        key = (st, left, pending, started, bc, bp, dpart)
        if key in memo:
            return memo[key]
        res = []
        here = (st, left, bc, bp, dpart if dpart is not None else st)
        if o['pass_allowed']:
            if pd_valid(st):
                res.append(here)
        # die steps
        die_res = []
        if left and (o['bonus_order'] == 'any' or not started):
            for (ns, nl, nb) in die_children(st, left):
                die_res += rec(ns, nl, tuple(sorted(list(pending) + nb)), started, bc, bp, dpart)
        res += die_res
        # bonus steps
        allow_bonus = bool(pending) and (
            o['bonus_order'] == 'any' or o['pass_allowed'] or not left or
            not [r for r in die_res])
        bon_res = []
        if allow_bonus:
            for (ns, b, npend) in bonus_children(st, pending):
                nd = dpart
                if nd is None and o['bonus_order'] == 'dice-first':
                    nd = st
                bon_res += rec(ns, left, npend, True, bc + 1, bp + b, nd)
        res += bon_res
        if not o['pass_allowed']:
            if not die_res and not bon_res and pd_valid(st):
                res.append(here)
        memo[key] = res
        return res

    GROUP_LOC = {}
    # mark P-D groups
    st = [list(x) for x in st0]
    if o['blockade_no_joint_move']:
        locs = {}
        for (p, a, g) in st[s]:
            if p in (0, 72):
                continue
            locs.setdefault(loc(s, p, ctx.n), []).append((p, a))
        gid = 0
        newl = []
        for L, lst in locs.items():
            if len(lst) >= 2:
                GROUP_LOC[gid] = L
                newl += [(p, a, gid) for (p, a) in lst]
                gid += 1
            else:
                newl += [(p, a, -1) for (p, a) in lst]
        newl += [(p, a, -1) for (p, a, g) in st[s] if p in (0, 72)]
        st[s] = newl
    st = tuple(tuple(sorted(x)) for x in st)
    return rec(st, tuple(sorted(values, reverse=True)), (), False, 0, 0, None)


def strip(st):
    return tuple(tuple(sorted((p, a) for (p, a, g) in x)) for x in st)


def legal_results(opt, pos, d1, d2):
    """pos: dict(seats, pieces{seat:[(p,age)]}, turn, doubles). Returns (kind, set of result
    canonical tuples). kind: 'penalty' / 'plays'."""
    n = pos['seats']
    s = pos['turn']
    st0 = tuple(tuple(sorted((p, a, -1) for (p, a) in pos['pieces'][seat])) for seat in range(n))
    doubles = d1 == d2
    dcount = pos['doubles'] + (1 if doubles else 0) if doubles else 0
    if doubles and opt['third_doubles_penalty'] and pos['doubles'] == 2:
        # P-H: nearest home (not home) to nest; turn passes
        lst = list(st0[s])
        cand = [q for q in lst if q[0] not in (0, 72)]
        new = [list(x) for x in st0]
        if cand:
            q = min(cand, key=lambda q: steps_left(q[0]))
            new[s].remove(q)
            # age: remaining alone loses its age
            Ls = loc(s, q[0], n)
            rem = [i for i, r in enumerate(new[s]) if r[0] != 0 and loc(s, r[0], n) == Ls]
            if len(rem) == 1:
                i = rem[0]
                new[s][i] = (new[s][i][0], 0, -1)
            new[s].append((0, 0, -1))
        new = tuple(tuple(sorted(x)) for x in new)
        return 'penalty', {finish(opt, pos, strip(new), doubles=False, penalty=True)}
    ctx = Ctx(opt, n, s)
    values = roll_values(st0, s, d1, d2, opt)
    plays = enumerate_plays(ctx, st0, values)
    nvals = len(values)
    def best_bonuses_per_dice_part(plays):
        groups = {}
        for p in plays:
            groups.setdefault(strip(p[4]), []).append(p)
        kept = []
        for g, lst in groups.items():
            b = max((p[2], p[3]) for p in lst)
            kept += [p for p in lst if (p[2], p[3]) == b]
        return kept

    if not opt['pass_allowed']:
        # P-C: most values then most pips
        def used(p):
            return nvals - len(p[1])

        def pips(p):
            return sum(values) - sum(p[1])
        best = max((used(p), pips(p)) for p in plays)
        plays = [p for p in plays if (used(p), pips(p)) == best]
        if opt['bonus_obligation'] == 'per-dice-play':
            plays = best_bonuses_per_dice_part(plays)
        else:
            b = max((p[2], p[3]) for p in plays)
            plays = [p for p in plays if (p[2], p[3]) == b]
    elif opt['bonus_order'] == 'dice-first':
        # O-F: the whole roll or a die may be given up, not a bonus the dice played earn
        plays = best_bonuses_per_dice_part(plays)
    if True:
        N = opt['blockade_turn_limit']
        if N > 0 and (TURN_LIMIT_FILTER if not opt['pass_allowed'] else TURN_LIMIT_PASS):
            def old_standing(p):
                st = p[0]
                cnt = {}
                for (q, a, g) in st[s]:
                    if q in (0, 72):
                        continue
                    L = loc(s, q, n)
                    cnt.setdefault(L, []).append(a)
                return any(len(v) >= 2 and v[0] >= N for v in cnt.values())
            starts_old = old_standing((st0,))
            if starts_old:
                free = [p for p in plays if not old_standing(p)]
                if free:
                    plays = free
    out = set()
    for p in plays:
        out.add(finish(opt, pos, strip(p[0]), doubles=doubles))
    return 'plays', out


TURN_LIMIT_FILTER = True
TURN_LIMIT_PASS = True  # engine reading (docs/rules/pachisi-online.md): with pass_allowed the pass and other plays leaving an old blockade standing are dropped when some play opens it
AGE_ON_FORFEIT = True
AGE_ON_PENALTY = False


def finish(opt, pos, st, doubles, penalty=False):
    """End of play: blockade ages, turn flow. Returns canonical result."""
    n = pos['seats']
    s = pos['turn']
    st = [list(x) for x in st]
    if opt['blockade_turn_limit'] > 0 and not (penalty and not AGE_ON_PENALTY):
        cnt = {}
        for i, (q, a) in enumerate(st[s]):
            if q in (0, 72):
                continue
            cnt.setdefault(loc(s, q, n), []).append(i)
        for L, idx in cnt.items():
            if len(idx) >= 2:
                for i in idx:
                    st[s][i] = (st[s][i][0], st[s][i][1] + 1)
    elif opt['blockade_turn_limit'] == 0:
        st = [[(q, 0) for (q, a) in x] for x in st]
    st = tuple(tuple(sorted(x)) for x in st)
    if any(all(q == 72 for (q, a) in x) for x in st):
        return ('over', st)
    if doubles and opt['doubles_extra_roll']:
        return ('turn', st, s, pos['doubles'] + 1)
    return ('turn', st, (s + 1) % n, 0)


# ---------------------------------------------------------------- notation helpers
def parse_position(text, nseats):
    f = dict(x.split(':', 1) for x in text.split())
    pieces = {}
    for seat in range(nseats):
        ps = [int(x) for x in f[str(seat)].split(',')]
        ages = [int(x) for x in f['age%d' % seat].split(',')] if ('age%d' % seat) in f else [0] * 4
        pieces[seat] = list(zip(ps, ages))
    return dict(seats=nseats, pieces=pieces, turn=int(f['turn']), doubles=int(f['doubles']),
                raw=f)


def canon_engine(game, nseats, opt):
    pos = parse_position(game.position, nseats)
    st = tuple(tuple(sorted((p, a if opt['blockade_turn_limit'] > 0 else 0) for (p, a) in pos['pieces'][seat]))
               for seat in range(nseats))
    if game.is_over and not game.truncated:
        return ('over', st)
    return ('turn', st, pos['turn'], pos['doubles'])


def position_text(pos):
    n = pos['seats']
    parts = []
    for seat in range(n):
        parts.append('%d:%s' % (seat, ','.join(str(p) for (p, a) in sorted(pos['pieces'][seat]))))
    parts.append('turn:%d' % pos['turn'])
    parts.append('doubles:%d' % pos['doubles'])
    for seat in range(n):
        lst = sorted(pos['pieces'][seat])
        if any(a for (p, a) in lst):
            parts.append('age%d:%s' % (seat, ','.join(str(a) for (p, a) in lst)))
    return ' '.join(parts)
