//! The RL encodings against the engine's own step interface: the `step` ids of every legal step
//! exist and tell apart steps with different results, the mask is exactly the legal steps (plus
//! "end" when the steps taken form a whole play), the `play` encoding lists every distinct play
//! within its bound, observations are finite and of the declared size, games restore from JSON,
//! and the vectorised environment is reproducible and resets itself.

use pachisi::dice::rng_from_seed;
use pachisi::rl::Encoding;
use pachisi::rl::env::{AnyGame, OutputBuffers, VecEnv, new_game};
use pachisi::sim::uniform_index;
use pachisi::{Game, Node, Rules};

fn configs() -> Vec<Rules> {
    let mut out: Vec<Rules> = pachisi::variants()
        .iter()
        .map(|v| Rules::preset(v).unwrap())
        .collect();
    for (name, opts) in [
        ("parcheesi", r#"{"seats": 2}"#),
        ("pachisi-family", r#"{"seats": 2}"#),
        ("pachisi", r#"{"seats": 2}"#),
        ("backgammon", r#"{"cube": false}"#),
    ] {
        out.push(Rules::with_options(name, &serde_json::from_str(opts).unwrap()).unwrap());
    }
    out
}

/// The position and the legal next step ids of a game after `step` (for comparing two steps).
fn after(g: &Game, step: &pachisi::Step, env: &dyn AnyGame) -> (String, Vec<Option<usize>>) {
    let mut c = g.clone();
    c.step(step).unwrap();
    let ids = c.legal_steps().iter().map(|s| env.step_action(s)).collect();
    (c.position(), ids)
}

/// Plays `games` random games through the `step` encoding in lockstep with a [`Game`] taking
/// the same steps and rolls, checking the mask at every decision.
fn lockstep(rules: &Rules, games: u64) {
    for seed in 0..games {
        let mut env = new_game(rules, Encoding::Step, seed, false).unwrap();
        let mut g = Game::new(rules, seed);
        let mut rng = rng_from_seed(seed + 1000);
        let mut obs = vec![f32::NAN; env.observation_size()];
        let mut decisions = 0;
        while decisions < 3000 {
            assert_eq!(env.node(), g.node(), "{} seed {seed}", rules.variant());
            match g.node() {
                Node::Over => {
                    let r: f64 = env.returns().iter().sum();
                    assert!(r.abs() < 1e-9);
                    assert_eq!(env.returns(), g.returns());
                    break;
                }
                Node::Chance => {
                    let roll = g.roll().unwrap();
                    env.apply_roll(roll).unwrap();
                }
                Node::Decision => {
                    decisions += 1;
                    assert_eq!(env.current_player(), g.to_move());
                    let steps = g.legal_steps();
                    let mut want: Vec<usize> = Vec::new();
                    for s in &steps {
                        let id = env.step_action(s);
                        assert!(id.is_some(), "{}: step {s:?} has no id", rules.variant());
                        want.push(id.unwrap());
                    }
                    // Two steps with one id must be interchangeable.
                    for (i, a) in steps.iter().enumerate() {
                        for (j, b) in steps.iter().enumerate().skip(i + 1) {
                            if want[i] == want[j] {
                                assert_eq!(after(&g, a, env.as_ref()), after(&g, b, env.as_ref()));
                            }
                        }
                    }
                    let k = g.taken().len();
                    if g.legal_plays().iter().any(|p| p.len() == k) {
                        want.push(0);
                    }
                    want.sort_unstable();
                    want.dedup();
                    let legal = env.legal_actions();
                    assert_eq!(
                        legal,
                        want,
                        "{} seed {seed}: {}",
                        rules.variant(),
                        g.position()
                    );
                    let mut mask = vec![false; env.num_actions()];
                    env.write_mask(&mut mask);
                    let from_mask: Vec<usize> = (0..mask.len()).filter(|&i| mask[i]).collect();
                    assert_eq!(from_mask, legal);
                    for seat in 0..env.seats() {
                        env.observe(seat, &mut obs);
                        assert!(obs.iter().all(|x| x.is_finite()));
                    }
                    let a = legal[uniform_index(&mut rng, legal.len())];
                    if a == 0 {
                        g.finish_play().unwrap();
                    } else {
                        let s = steps
                            .iter()
                            .find(|s| env.step_action(s) == Some(a))
                            .unwrap();
                        g.step(s).unwrap();
                    }
                    env.apply_action(a).unwrap();
                    if g.taken().is_empty() {
                        assert_eq!(env.position(), g.position());
                    }
                }
            }
        }
    }
}

#[test]
fn step_encoding_matches_the_step_interface() {
    for rules in configs() {
        lockstep(&rules, 3);
    }
}

/// The same under Parcheesi option sets beyond the presets: Parcheesi lists its next steps
/// directly (`Encode::rl_next_steps`) under every option set, and with passing a roll whose only
/// legal play is the pass is a decision with "end" alone, as in the step interface.
#[test]
fn step_encoding_matches_the_step_interface_under_parcheesi_options() {
    for (name, opts) in [
        ("parcheesi", r#"{"pass_allowed": true}"#),
        ("parcheesi", r#"{"bonus_obligation": "most-bonuses"}"#),
        (
            "parcheesi",
            r#"{"bonus_order": "any", "bonus_obligation": "most-bonuses"}"#,
        ),
        ("parcheesi", r#"{"blockade_turn_limit": 2, "seats": 3}"#),
        ("pachisi-online", r#"{"pass_allowed": true, "seats": 2}"#),
        (
            "pachisi-online",
            r#"{"capture_bonus": 6, "blockades": false}"#,
        ),
    ] {
        let rules = Rules::with_options(name, &serde_json::from_str(opts).unwrap()).unwrap();
        lockstep(&rules, 2);
    }
}

#[test]
fn play_encoding_lists_every_distinct_play_within_its_bound() {
    for rules in configs() {
        for seed in 0..4 {
            let mut env = new_game(&rules, Encoding::Play, seed, false).unwrap();
            let mut g = Game::new(&rules, seed);
            let mut rng = rng_from_seed(seed);
            while !g.is_over() && g.log().len() < 4000 {
                if g.is_chance_node() {
                    let r = g.roll().unwrap();
                    env.apply_roll(r).unwrap();
                    continue;
                }
                let plays = g.legal_plays();
                assert!(plays.len() <= env.num_actions(), "{}", rules.variant());
                assert_eq!(env.legal_actions(), (0..plays.len()).collect::<Vec<_>>());
                let i = uniform_index(&mut rng, plays.len());
                assert_eq!(env.action_to_string(i), g.format_play(&plays[i]));
                g.play(&plays[i]).unwrap();
                env.apply_action(i).unwrap();
                assert_eq!(env.position(), g.position());
            }
        }
    }
}

#[test]
fn illegal_actions_are_errors_and_change_nothing() {
    let rules = Rules::preset("parcheesi").unwrap();
    let mut env = new_game(&rules, Encoding::Step, 5, true).unwrap();
    let before = env.to_json();
    let bad = (0..env.num_actions())
        .find(|a| !env.legal_actions().contains(a))
        .unwrap();
    assert!(env.apply_action(bad).is_err());
    assert!(env.apply_action(usize::MAX).is_err());
    assert_eq!(env.to_json(), before);
    assert!(new_game(&rules, Encoding::OpenSpiel, 0, true).is_err());
}

#[test]
fn games_restore_from_json_mid_play() {
    for rules in configs() {
        let mut env = new_game(&rules, Encoding::Step, 9, true).unwrap();
        let mut rng = rng_from_seed(3);
        for _ in 0..200 {
            if env.node() == Node::Over {
                break;
            }
            let legal = env.legal_actions();
            env.apply_action(legal[uniform_index(&mut rng, legal.len())])
                .unwrap();
            let text = env.to_json();
            let mut back = new_game(&rules, Encoding::Step, 0, true).unwrap();
            back.load_json(&text).unwrap();
            assert_eq!(back.to_json(), text);
            assert_eq!(back.legal_actions(), env.legal_actions());
        }
        let mut other = new_game(&rules, Encoding::Step, 0, true).unwrap();
        let before = other.to_json();
        assert!(other.load_json("{\"state\": 1}").is_err());
        assert_eq!(other.to_json(), before);
    }
}

#[test]
fn a_game_saved_at_a_chance_node_loads_into_automatic_chance_and_rolls() {
    for rules in configs() {
        for encoding in [Encoding::Step, Encoding::Play] {
            // Explicit chance: a roll is due at the start.
            let mut manual = new_game(&rules, encoding, 5, false).unwrap();
            assert_eq!(manual.node(), Node::Chance);
            let text = manual.to_json();
            let mut auto = new_game(&rules, encoding, 77, true).unwrap();
            auto.load_json(&text).unwrap();
            // The saved generator makes the roll (and any forfeits after it), as the explicit
            // game's own rolls do.
            while manual.node() == Node::Chance {
                manual.roll().unwrap();
            }
            assert_ne!(auto.node(), Node::Chance, "{}", rules.variant());
            assert_eq!(auto.position(), manual.position(), "{}", rules.variant());
            assert_eq!(auto.legal_actions(), manual.legal_actions());
            assert_eq!(auto.rolls(), manual.rolls());
            // Steps taken where a roll is due cannot be: refused, nothing changed.
            let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
            let mid = {
                let mut g = new_game(&rules, encoding, 5, true).unwrap();
                let a = g.legal_actions()[0];
                g.apply_action(a).unwrap();
                serde_json::from_str::<serde_json::Value>(&g.to_json()).unwrap()
            };
            if mid["taken"] != value["taken"] {
                value["taken"] = mid["taken"].clone();
                let before = auto.to_json();
                assert!(auto.load_json(&value.to_string()).is_err());
                assert_eq!(auto.to_json(), before);
            }
        }
    }
}

#[test]
fn observation_views_tile_the_vector() {
    for rules in configs() {
        let env = new_game(&rules, Encoding::Step, 0, true).unwrap();
        let views = env.views();
        let mut at = 0;
        for v in &views {
            assert_eq!(v.offset, at, "{}", v.name);
            at += v.size();
        }
        assert_eq!(at, env.observation_size());
        let mut obs = vec![0.0; at];
        env.observe(env.current_player(), &mut obs);
        let occ = views.iter().find(|v| v.name == "occupancy").unwrap();
        let pieces: f32 = obs[occ.offset..occ.offset + occ.size()].iter().sum();
        let per_seat = if rules.variant() == "backgammon" {
            15.0
        } else {
            4.0
        };
        let owners = if rules.variant() == "pachisi" {
            4.0
        } else {
            env.seats() as f32
        };
        assert_eq!(pieces, per_seat * owners, "{}", rules.variant());
    }
}

fn run_vec(rules: &Rules, n: usize, seed: u64, steps: usize) -> (Vec<f32>, usize, Vec<f32>) {
    let mut env = VecEnv::new(rules, n, seed, Encoding::Step, Some(400)).unwrap();
    let (a, p) = (env.num_actions(), env.seats() as usize);
    let mut buffers = OutputBuffers::new(&env);
    let mut out = buffers.outputs();
    env.reset(None, &mut out).unwrap();
    let mut rng = rng_from_seed(seed);
    let mut ends = 0;
    let mut total = vec![0.0f32; p];
    for _ in 0..steps {
        let actions: Vec<i64> = (0..n)
            .map(|i| {
                let legal: Vec<usize> = (0..a).filter(|&j| out.mask[i * a + j]).collect();
                assert!(!legal.is_empty());
                legal[uniform_index(&mut rng, legal.len())] as i64
            })
            .collect();
        env.step(&actions, &mut out).unwrap();
        for i in 0..n {
            let row = &out.rewards[i * p..(i + 1) * p];
            let s: f32 = row.iter().sum();
            assert!(s.abs() < 1e-5);
            if out.terminated[i] {
                assert!(row.iter().any(|&r| r != 0.0));
            }
            if out.terminated[i] || out.truncated[i] {
                ends += 1;
            }
            for (t, r) in total.iter_mut().zip(row) {
                *t += r;
            }
        }
    }
    // An illegal action is refused and nothing moves.
    let before = out.obs.to_vec();
    let bad: Vec<i64> = (0..n).map(|_| -1).collect();
    assert!(env.step(&bad, &mut out).is_err());
    assert_eq!(out.obs.to_vec(), before);
    (out.obs.to_vec(), ends, total)
}

#[test]
fn vec_env_is_reproducible_and_resets_games_that_end() {
    let rules = Rules::with_options("backgammon", &serde_json::json!({"cube": false})).unwrap();
    let (a, ends, _) = run_vec(&rules, 8, 1, 600);
    let (b, _, _) = run_vec(&rules, 8, 1, 600);
    assert_eq!(a, b);
    assert!(ends > 0, "no game ended in 600 steps");
    let (c, _, _) = run_vec(&rules, 8, 2, 600);
    assert_ne!(a, c);
    // Game i of a batch is the game seeded seed + i alone.
    let mut one = VecEnv::new(&rules, 1, 4, Encoding::Step, None).unwrap();
    let four = VecEnv::new(&rules, 5, 0, Encoding::Step, None).unwrap();
    let (g1, g4) = (
        one.game(0).unwrap().to_json(),
        four.game(4).unwrap().to_json(),
    );
    assert_eq!(g1, g4);
    let _ = &mut one;
    let parcheesi = Rules::preset("pachisi-online").unwrap();
    run_vec(&parcheesi, 4, 0, 300);
}

/// The observations of `steps` calls of `random_actions` and `step` after `env.reset(seed)`.
fn random_run(env: &mut VecEnv, seed: Option<u64>, steps: usize) -> Vec<f32> {
    let mut buffers = OutputBuffers::new(env);
    let mut out = buffers.outputs();
    env.reset(seed, &mut out).unwrap();
    let mut actions = vec![0i64; env.num_envs()];
    let mut seen = out.obs.to_vec();
    for _ in 0..steps {
        env.random_actions(&mut actions);
        env.step(&actions, &mut out).unwrap();
        seen.extend_from_slice(out.obs);
    }
    seen
}

#[test]
fn vec_env_reset_with_a_seed_restarts_the_random_actions_too() {
    // After reset(Some(s)), random_actions draws what a new VecEnv of seed s draws, whatever
    // the environment did before (the generators of random_actions are not left running).
    let rules = Rules::preset("parcheesi").unwrap();
    let mut fresh = VecEnv::new(&rules, 4, 7, Encoding::Step, None).unwrap();
    let expected = random_run(&mut fresh, None, 60);
    let mut used = VecEnv::new(&rules, 4, 3, Encoding::Step, None).unwrap();
    random_run(&mut used, None, 25);
    assert_eq!(random_run(&mut used, Some(7), 60), expected);
    // reset(None) restarts from the current seed: the same trajectory again.
    assert_eq!(random_run(&mut used, None, 60), expected);
}

#[test]
fn openspiel_encoding_plays_exactly_the_legal_plays() {
    let rules = Rules::with_options("backgammon", &serde_json::json!({"cube": false})).unwrap();
    for seed in 0..4 {
        let mut env = new_game(&rules, Encoding::OpenSpiel, seed, false).unwrap();
        let mut g = Game::new(&rules, seed);
        let mut rng = rng_from_seed(seed);
        while !g.is_over() {
            if env.node() == Node::Decision && env.legal_actions() == [1351] {
                // A roll with no move: OpenSpiel passes where pachisi forfeits.
                env.apply_action(1351).unwrap();
                continue;
            }
            assert_eq!(env.node(), g.node());
            if g.is_chance_node() {
                let r = g.roll().unwrap();
                env.apply_roll(r).unwrap();
                continue;
            }
            let results: Vec<(String, pachisi::Play)> = g
                .legal_plays()
                .into_iter()
                .map(|p| {
                    let mut c = g.clone();
                    c.play(&p).unwrap();
                    (c.position(), p)
                })
                .collect();
            let seat = env.current_player();
            while env.node() == Node::Decision && env.current_player() == seat {
                let legal = env.legal_actions();
                assert!(legal.iter().all(|&a| a < 1352));
                env.apply_action(legal[uniform_index(&mut rng, legal.len())])
                    .unwrap();
            }
            let (_, play) = results
                .iter()
                .find(|(pos, _)| *pos == env.position())
                .expect("the OpenSpiel actions made a play that is not legal");
            g.play(play).unwrap();
        }
        assert!(env.node() == Node::Over);
        assert_eq!(env.returns(), g.returns());
    }
}

/// The most distinct plays a Family Pachisi roll can have, by the counting argument of
/// `docs/RL.md`: a play moves the pieces of one colour, and its result (and the values it uses)
/// is fixed by which of the roll's values each of the four pieces takes. Two different dice:
/// each die unused or taken by one of four pieces, 5 · 5 = 25. Doubles `[h, h, l, l]`: at most
/// two equal values spread over four pieces in 1 + 4 + 10 = 15 ways, for h and for l, 225.
const FAMILY_COUNTING_BOUND: usize = 225;

/// The number of distinct plays of position `s` with `dice` rolled by the seat on turn (None
/// when the roll leaves no decision, e.g. a missed entry try).
fn distinct_plays<R: pachisi::RuleSystem>(sys: &R, s: &R::State, dice: [u8; 2]) -> Option<usize> {
    use pachisi::{Orders, Roll};
    let mut t = *s;
    sys.begin_roll(&mut t, Roll::Dice(dice));
    if sys.node(&t) != Node::Decision {
        return None;
    }
    let mut plays = Vec::new();
    sys.generate(&t, Orders::Distinct, &mut plays);
    Some(plays.len())
}

/// One step of the hill climbs below: moves to the candidate `t` when it is a valid position
/// with at least as many distinct plays (`cur` is the count at `s`).
fn climb<R: pachisi::RuleSystem>(
    sys: &R,
    s: &mut R::State,
    cur: &mut usize,
    t: R::State,
    dice: [u8; 2],
) {
    if sys.validate_state(&t).is_err() {
        return;
    }
    if let Some(n) = distinct_plays(sys, &t, dice)
        && n >= *cur
    {
        *s = t;
        *cur = n;
    }
}

#[test]
fn family_play_count_stays_within_the_counting_bound() {
    use pachisi::family::{FamilyRules, FamilyState, GOAL, PIECES, START_AREA};
    use pachisi::{RuleSystem, SystemRules};
    // The encoding's size holds the proven bound.
    let fam = Rules::preset("pachisi-family").unwrap();
    let env = new_game(&fam, Encoding::Play, 0, true).unwrap();
    assert!(env.num_actions() >= FAMILY_COUNTING_BOUND);
    // Hill climbing over positions (every piece of every colour, captured or never played) for
    // each roll, keeping a change that does not lower the count: adversarial positions, not
    // just those random games reach.
    let variants = [
        FamilyRules::family(),
        FamilyRules {
            seats: 2,
            teams: false,
            ..FamilyRules::family()
        },
        FamilyRules {
            doubles_restricted_until_all_played: false,
            sum_of_five_enters: true,
            ..FamilyRules::family()
        },
    ];
    let mut rng = rng_from_seed(19);
    let mut best = 0;
    for rules in variants {
        let sys = rules.build().unwrap();
        let seats = sys.seats();
        for d1 in 1..=6u8 {
            for d2 in d1..=6u8 {
                for _restart in 0..3 {
                    let mut s: FamilyState = sys.initial_state();
                    let mut cur = distinct_plays(&sys, &s, [d2, d1]).unwrap_or(0);
                    for _ in 0..150 {
                        let mut t = s;
                        let c = uniform_index(&mut rng, seats as usize);
                        let i = uniform_index(&mut rng, PIECES);
                        let p = uniform_index(&mut rng, GOAL as usize + 1) as u8;
                        t.pos[c][i] = p;
                        let bit = 1u16 << (4 * c + i);
                        // A piece back in the start area was captured or never played.
                        if p != START_AREA || uniform_index(&mut rng, 2) == 0 {
                            t.played |= bit;
                        } else {
                            t.played &= !bit;
                        }
                        climb(&sys, &mut s, &mut cur, t, [d2, d1]);
                    }
                    best = best.max(cur);
                    assert!(
                        cur <= FAMILY_COUNTING_BOUND,
                        "{cur} plays in {s:?} with {d2}-{d1}"
                    );
                }
            }
        }
    }
    // The search does reach rich positions: 100 (two h and two l over four pieces, 10 · 10, the
    // sharper bound when every play uses all four values of a doubles roll), the largest count
    // random games meet.
    assert!(best >= 100, "the search found at most {best} plays");
    eprintln!("family: most distinct plays found {best} (bound {FAMILY_COUNTING_BOUND})");
}

/// A search (run it with `--ignored`) for Parcheesi positions with many plays: the `play`
/// encoding's Parcheesi size (16,384) is not a proven bound, so this is the evidence for it. A
/// hill climb over adversarial positions (every piece of every seat moved to any square from the
/// nest to home, captures and bonus chains included), for every roll, keeps a
/// change that does not lower the number of distinct plays and prints the largest count found
/// per rule set (Parcheesi with four and two seats, Online Pachisi) and overall with its
/// position; `RL_PARCHEESI_SEARCH=<steps>` sets the steps per restart (default 120).
/// `docs/RL.md` reports what it finds.
#[test]
#[ignore = "a long search for docs/RL.md: the most plays adversarial Parcheesi positions have"]
fn parcheesi_play_count_search() {
    use pachisi::parcheesi::{HOME, PIECES, ParcheesiRules, ParcheesiState};
    use pachisi::{RuleSystem, SystemRules};
    let steps: usize = std::env::var("RL_PARCHEESI_SEARCH")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(120);
    let size = new_game(
        &Rules::preset("parcheesi").unwrap(),
        Encoding::Play,
        0,
        true,
    )
    .unwrap()
    .num_actions();
    let variants = [
        ParcheesiRules::parcheesi(),
        ParcheesiRules {
            seats: 2,
            ..ParcheesiRules::parcheesi()
        },
        ParcheesiRules::online(),
    ];
    let mut rng = rng_from_seed(19);
    let mut best = (0, String::new());
    for (v, rules) in variants.into_iter().enumerate() {
        let sys = rules.build().unwrap();
        let seats = sys.seats() as usize;
        let mut variant_best = 0;
        for d1 in 1..=6u8 {
            for d2 in d1..=6u8 {
                for _restart in 0..2 {
                    // The fields are the crate's own: positions are changed through JSON.
                    let mut s: ParcheesiState = sys.initial_state();
                    let mut cur = distinct_plays(&sys, &s, [d2, d1]).unwrap_or(0);
                    for _ in 0..steps {
                        let mut v = serde_json::to_value(s).unwrap();
                        let c = uniform_index(&mut rng, seats);
                        let i = uniform_index(&mut rng, PIECES);
                        let p = uniform_index(&mut rng, HOME as usize + 1);
                        v["pieces"][c][i] = serde_json::json!(p);
                        let Ok(t) = serde_json::from_value::<ParcheesiState>(v) else {
                            continue;
                        };
                        climb(&sys, &mut s, &mut cur, t, [d2, d1]);
                    }
                    variant_best = variant_best.max(cur);
                    if cur > best.0 {
                        best = (cur, format!("{} seats, {d2}-{d1}: {s:?}", sys.seats()));
                    }
                }
            }
        }
        eprintln!(
            "rule set {v} ({} seats): most distinct plays found {variant_best}",
            seats
        );
    }
    eprintln!(
        "parcheesi: most distinct plays found {} (encoding size {size}) in {}",
        best.0, best.1
    );
    // The search does reach rich positions (doubles with every piece out give hundreds).
    assert!(best.0 >= 100, "the search found at most {} plays", best.0);
    // And none past the encoding's size: such a play would have no id.
    assert!(
        best.0 <= size,
        "{} plays found, more than the {size} ids",
        best.0
    );
}

/// The rules' `max_rolls` ends an RL game as it ends a `Game` (G-A): over after that many
/// rolls, truncated, no winner and zero returns; the count survives JSON, and a game saved
/// without it (before the cap applied here) counts from 0.
#[test]
fn max_rolls_truncates_rl_games_as_it_does_games() {
    for encoding in [Encoding::Step, Encoding::Play] {
        let rules = Rules::with_options("pachisi", &serde_json::json!({"max_rolls": 10})).unwrap();
        let mut g = new_game(&rules, encoding, 1, true).unwrap();
        let mut game = Game::new(&rules, 1);
        let mut actions = 0;
        while g.node() != Node::Over {
            assert!(!g.truncated());
            g.apply_action(g.legal_actions()[0]).unwrap();
            actions += 1;
            assert!(actions < 1000, "{encoding:?}: max_rolls ignored");
        }
        assert_eq!(g.rolls(), 10);
        assert!(g.truncated(), "{encoding:?}");
        assert_eq!(g.returns(), vec![0.0; 4]);
        assert!(g.legal_actions().is_empty());
        // A `Game` with the same cap ends after as many rolls.
        while !game.is_over() {
            if game.is_chance_node() {
                game.roll().unwrap();
            } else {
                game.play_index(0).unwrap();
            }
        }
        assert!(game.is_truncated());
        assert_eq!(game.rolls(), 10);

        let json = g.to_json();
        let mut h = new_game(&rules, encoding, 2, true).unwrap();
        h.load_json(&json).unwrap();
        assert_eq!((h.rolls(), h.truncated()), (10, true));
        // Saved without the count (at a decision: an automatic game never waits at a roll).
        let fresh = new_game(&rules, encoding, 3, true).unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&fresh.to_json()).unwrap();
        assert!(v.as_object_mut().unwrap().remove("rolls").is_some());
        h.load_json(&v.to_string()).unwrap();
        assert_eq!(h.rolls(), 0);
        assert_eq!(h.position(), fresh.position());
    }
    // Rolled by the caller: the roll after the last one allowed is refused.
    let rules = Rules::with_options("backgammon", &serde_json::json!({"max_rolls": 1})).unwrap();
    let mut g = new_game(&rules, Encoding::Play, 1, false).unwrap();
    g.roll().unwrap();
    g.apply_action(g.legal_actions()[0]).unwrap();
    assert_eq!(g.node(), Node::Over);
    assert!(g.truncated());
    assert!(g.roll().is_err());
}

/// A vectorised environment reports a game cut by `max_rolls` as truncated (not terminated)
/// and starts it again; more environments than `MAX_ENVS` is an error, not an allocation.
#[test]
fn vec_env_truncates_at_max_rolls_and_bounds_its_size() {
    let rules = Rules::with_options("pachisi", &serde_json::json!({"max_rolls": 10})).unwrap();
    let mut env = VecEnv::new(&rules, 4, 0, Encoding::Step, None).unwrap();
    let mut buffers = OutputBuffers::new(&env);
    let mut actions = vec![0i64; 4];
    let (mut truncated, mut terminated) = (0, 0);
    {
        let mut out = buffers.outputs();
        env.reset(None, &mut out).unwrap();
    }
    for _ in 0..100 {
        env.random_actions(&mut actions);
        let mut out = buffers.outputs();
        env.step(&actions, &mut out).unwrap();
        truncated += out.truncated.iter().filter(|&&t| t).count();
        terminated += out.terminated.iter().filter(|&&t| t).count();
        assert!(out.rewards.iter().all(|&r| r == 0.0));
    }
    assert!(truncated > 0);
    assert_eq!(terminated, 0);
    for n in [0, pachisi::rl::env::MAX_ENVS + 1, usize::MAX] {
        let e = VecEnv::new(&rules, n, 0, Encoding::Step, None)
            .err()
            .unwrap();
        assert!(matches!(e, pachisi::Error::InvalidArgument(_)), "{e}");
    }
    // A limit of 0 actions would act as 1 (it is checked after an action): refused.
    let e = VecEnv::new(&rules, 2, 0, Encoding::Step, Some(0))
        .err()
        .unwrap();
    assert!(matches!(e, pachisi::Error::InvalidArgument(_)), "{e}");
    assert!(e.to_string().contains("at least 1"), "{e}");
}

#[test]
fn vec_env_output_buffers_of_the_wrong_size_are_an_error_in_reset_and_step() {
    // `reset` sliced its buffers without checking them (a panic on short rewards, games left
    // unreset past short observations); `step` refused them as invalid *rules*.
    let rules = Rules::preset("backgammon").unwrap();
    let mut env = VecEnv::new(&rules, 3, 5, Encoding::Step, None).unwrap();
    let mut buffers = OutputBuffers::new(&env);
    let mut out = buffers.outputs();
    env.reset(None, &mut out).unwrap();
    let (obs, mask) = (out.obs.to_vec(), out.mask.to_vec());
    let mut actions = vec![0i64; 3];
    env.random_actions(&mut actions);
    env.step(&actions, &mut out).unwrap();
    let after_step = out.obs.to_vec();
    let mut short_rewards = [0.0f32; 1];
    let mut short_obs = [0.0f32; 1];
    let mut long_mask = vec![false; 4 * env.num_actions()];
    for which in 0..3 {
        let mut bad = buffers.outputs();
        match which {
            0 => bad.rewards = &mut short_rewards,
            1 => bad.obs = &mut short_obs,
            _ => bad.mask = &mut long_mask,
        }
        let e = env.reset(Some(9), &mut bad).unwrap_err();
        assert!(
            matches!(e, pachisi::Error::InvalidArgument(_)),
            "{which}: {e}"
        );
        let e = env.step(&actions, &mut bad).unwrap_err();
        assert!(
            matches!(e, pachisi::Error::InvalidArgument(_)),
            "{which}: {e}"
        );
    }
    // Nothing changed: the games are where the last good step left them.
    let mut out = buffers.outputs();
    assert_eq!(out.obs, &after_step[..]);
    env.reset(None, &mut out).unwrap();
    assert_eq!((out.obs.to_vec(), out.mask.to_vec()), (obs, mask));
}

#[test]
fn an_action_id_outside_the_encoding_is_described_as_invalid() {
    // Ids past the encoding were described as if they existed: `double` in Parcheesi's `step`
    // encoding (which has no cube), a wrapped `special<n>`, two checker moves past OpenSpiel's
    // 1,352 ids.
    let mut cases: Vec<(Rules, Encoding)> = Vec::new();
    for rules in configs() {
        cases.push((rules.clone(), Encoding::Step));
        cases.push((rules.clone(), Encoding::Play));
        if rules.variant() == "backgammon" {
            cases.push((rules, Encoding::OpenSpiel));
        }
    }
    for (rules, encoding) in cases {
        let g = new_game(&rules, encoding, 1, true).unwrap();
        let n = g.num_actions();
        for id in [n, n + 1, n + 3, usize::MAX] {
            assert_eq!(
                g.action_to_string(id),
                format!("invalid {id}"),
                "{} {encoding:?}",
                rules.variant()
            );
        }
        for id in g.legal_actions() {
            assert!(!g.action_to_string(id).starts_with("invalid"));
        }
    }
}
