//! Play generation for Classic Pachisi (CLS-3..CLS-9, C-A..C-C): a throw moves one piece or one
//! unit (CLS-7), or enters a piece with a grace (CLS-5); castles (CLS-9), exact count home (CLS-4)
//! and captures by unit size (CLS-8) decide what is legal; the pass is listed where it is a
//! choice. Checked against [`super::reference`].

use super::*;

pub(super) fn generate(
    sys: &ClassicSystem,
    s: &ClassicState,
    _orders: Orders,
    out: &mut Vec<Play>,
) {
    // One throw is one step (or a pass), and every (position, unit size) gives a different
    // result, so the distinct plays and all plays coincide.
    let Some(up) = s.throw else { return };
    if sys.node(s) != Node::Decision {
        return;
    }
    let c = s.turn as usize;
    let v = sys.values[up as usize];
    let ps = &s.pieces[c];
    // C-C: passing is always a choice.
    out.push(Play::new());
    let waiting = ps.iter().position(|&p| p == NOT_ENTERED);
    if let Some(i) = waiting.filter(|_| sys.grace[up as usize]) {
        let mut play = Play::new();
        play.push(Step {
            seat: c as u8,
            piece: i as u8,
            from: NOT_ENTERED,
            to: CHARKONI_START,
            value: v,
            count: 1,
            captured: 0,
            kind: StepKind::Enter,
        });
        out.push(play);
    }
    let mut i = 0;
    while i < PIECES {
        let p = ps[i];
        let mut n = 1;
        while i + n < PIECES && ps[i + n] == p {
            n += 1;
        }
        let t = p + v;
        if (CHARKONI_START..HOME).contains(&p)
            && t <= HOME
            && (sys.rules.allow_dead_end || !sys.board.dead[t as usize])
        {
            // C-A: pieces on the charkoni never leave as a unit.
            let max_unit = if p == CHARKONI_START || !sys.rules.units {
                1
            } else {
                n
            };
            let (opposing, castle) = sys.opposition(s, c, t);
            for k in 1..=max_unit {
                // CLS-8 (capture needs at least as many), CLS-9 (no landing on a castle
                // held by the other team).
                if opposing > 0 && (castle || (k as u8) < opposing) {
                    continue;
                }
                let mut play = Play::new();
                play.push(Step {
                    seat: c as u8,
                    piece: i as u8,
                    from: p,
                    to: t,
                    value: v,
                    count: k as u8,
                    captured: opposing,
                    kind: StepKind::Move,
                });
                out.push(play);
            }
        }
        i += n;
    }
}
