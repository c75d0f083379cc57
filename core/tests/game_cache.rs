//! The game object: the lists kept per decision node against a fresh generation (after every
//! kind of action, undo, redo, copies and loads), the size of a copy, events, history and redo,
//! the position hash and the plays of a hypothetical roll.

use pachisi::{Event, Game, Node, Roll, StepKind};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64 as StdRng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts the bytes allocated by this thread's code (tests run on several threads, so the
/// measuring test counts only while `COUNTING` is its own thread's id).
struct Counting;
static ALLOCATED: AtomicUsize = AtomicUsize::new(0);
static COUNTING: AtomicUsize = AtomicUsize::new(0);
thread_local! {
    static THREAD_ID: usize = {
        static NEXT: AtomicUsize = AtomicUsize::new(1);
        NEXT.fetch_add(1, Ordering::Relaxed)
    };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let me = THREAD_ID.try_with(|id| *id).unwrap_or(0);
        if me != 0 && COUNTING.load(Ordering::Relaxed) == me {
            ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn heap_bytes_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let me = THREAD_ID.with(|id| *id);
    ALLOCATED.store(0, Ordering::Relaxed);
    COUNTING.store(me, Ordering::Relaxed);
    let out = f();
    COUNTING.store(0, Ordering::Relaxed);
    (out, ALLOCATED.load(Ordering::Relaxed))
}

/// The kept lists agree with a fresh generation, and a decision node with no step taken always
/// has a play (rolls that cannot be played were forfeited).
fn check_lists(g: &Game, what: &str) {
    let fresh = g.fresh_copy();
    assert_eq!(g.legal_plays(), fresh.legal_plays(), "{what}: legal plays");
    assert_eq!(g.legal_steps(), fresh.legal_steps(), "{what}: legal steps");
    assert_eq!(g.legal_plays_ref(), &fresh.legal_plays()[..], "{what}");
    if g.node() == Node::Decision && g.taken().is_empty() {
        assert!(
            !g.legal_plays().is_empty(),
            "{what}: an unplayable roll kept"
        );
    }
    if g.node() != Node::Decision {
        assert!(
            g.legal_plays().is_empty() && g.legal_steps().is_empty(),
            "{what}"
        );
    }
}

/// A random walk through every kind of action; after each, the kept lists are checked.
fn walk(variant: &str, seed: u64, actions: usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut g = Game::from_preset(variant, seed).unwrap();
    for i in 0..actions {
        let what = format!("{variant} seed {seed} action {i}");
        match rng.random_range(0..20) {
            0 | 1 => {
                let _ = g.undo();
            }
            2 => {
                let _ = g.redo();
            }
            3 => g = g.clone(),
            4 if i % 7 == 0 => g = Game::from_json(&g.to_json()).unwrap(),
            5 => {
                // Look at the lists, then change the game: the next check must not see them.
                let _ = g.legal_plays();
                let _ = g.legal_steps();
                let copy = g.clone();
                let _ = g.undo();
                check_lists(&copy, &what);
            }
            _ => {}
        }
        check_lists(&g, &what);
        if g.is_over() {
            if g.undo().is_err() {
                break;
            }
            continue;
        }
        if g.is_chance_node() {
            if rng.random_bool(0.3) {
                let outcomes = g.chance_outcomes();
                let roll = outcomes[rng.random_range(0..outcomes.len())].roll;
                let hypothetical = g.plays_for_roll(roll).unwrap();
                let mut h = g.clone();
                h.set_roll(roll).unwrap();
                if h.node() == Node::Decision && h.history_len() == g.history_len() + 1 {
                    assert_eq!(hypothetical, h.legal_plays(), "{what}: plays_for_roll");
                }
                g = h;
            } else {
                g.roll().unwrap();
            }
            continue;
        }
        let plays = g.legal_plays();
        let steps = g.legal_steps();
        match rng.random_range(0..4) {
            0 if !steps.is_empty() => g.step(&steps[rng.random_range(0..steps.len())]).unwrap(),
            1 => {
                let play = plays[rng.random_range(0..plays.len())];
                g.play(&play).unwrap();
            }
            _ => g.play_index(rng.random_range(0..plays.len())).unwrap(),
        }
    }
}

#[test]
fn kept_lists_match_a_fresh_generation_in_every_preset() {
    for variant in pachisi::variants() {
        for seed in 0..6 {
            walk(variant, seed, 400);
        }
    }
}

#[test]
fn a_new_action_clears_redo_and_undo_redo_returns_exactly() {
    for variant in pachisi::variants() {
        let mut g = Game::from_preset(variant, 11).unwrap();
        for _ in 0..60 {
            if g.is_over() {
                break;
            }
            if g.is_chance_node() {
                g.roll().unwrap();
            } else {
                g.play_index(0).unwrap();
            }
        }
        let end = g.to_json();
        let history = g.history();
        let n = g.history_len();
        for k in 1..=10 {
            g.undo().unwrap();
            assert_eq!(g.redo_len(), k);
            assert_eq!(g.history_len(), n - k);
        }
        for _ in 0..10 {
            g.redo().unwrap();
        }
        assert_eq!(g.to_json(), end, "{variant}");
        assert_eq!(g.history(), history, "{variant}");
        assert!(g.redo().is_err());
        g.undo().unwrap();
        if g.is_chance_node() {
            g.roll().unwrap();
        } else {
            g.play_index(0).unwrap();
        }
        assert_eq!(g.redo_len(), 0, "{variant}: a new action clears redo");
        assert!(g.redo().is_err());
    }
}

#[test]
fn history_lists_every_action_with_its_events_and_survives_json() {
    for variant in pachisi::variants() {
        let mut g = Game::from_preset(variant, 5).unwrap();
        let mut rng = StdRng::seed_from_u64(5);
        while !g.is_over() && g.history_len() < 2000 {
            if g.is_chance_node() {
                g.roll().unwrap();
            } else {
                let n = g.legal_plays().len();
                g.play_index(rng.random_range(0..n)).unwrap();
            }
        }
        let h = g.history();
        assert_eq!(h.len(), g.history_len());
        // Every action's events begin with the action, and the logged ones make the log.
        let mut log = Vec::new();
        for e in &h {
            assert!(matches!(
                e.events[0],
                Event::Roll { .. } | Event::Play { .. } | Event::Step { .. }
            ));
            log.extend(e.events.iter().filter(|e| e.is_logged()).copied());
        }
        assert_eq!(log, g.log(), "{variant}");
        let over: Vec<_> = h
            .iter()
            .flat_map(|e| &e.events)
            .filter(|e| matches!(e, Event::GameOver { .. }))
            .collect();
        if g.is_over() {
            assert_eq!(over.len(), 1, "{variant}: the end is reported once");
            assert_eq!(*h.last().unwrap().events.last().unwrap(), *over[0]);
        }
        let back = Game::from_json(&g.to_json()).unwrap();
        assert_eq!(
            back.history(),
            h,
            "{variant}: the events are rebuilt on load"
        );
    }
}

#[test]
fn captures_and_bonuses_are_reported_with_their_victims() {
    let (mut captures, mut bonuses) = (0, 0);
    for seed in 0..30 {
        let mut g = Game::from_preset("parcheesi", seed).unwrap();
        let mut rng = StdRng::seed_from_u64(seed);
        while !g.is_over() {
            if g.is_chance_node() {
                g.roll().unwrap();
                continue;
            }
            let plays = g.legal_plays();
            let play = plays[rng.random_range(0..plays.len())];
            g.play(&play).unwrap();
            let events = g.events();
            let want_captures = play.steps().iter().filter(|s| s.captured > 0).count();
            let want_bonuses = play
                .steps()
                .iter()
                .filter(|s| s.kind == StepKind::Bonus)
                .count();
            let mut got = 0;
            for e in events {
                match *e {
                    Event::Capture {
                        owner,
                        victim,
                        count,
                        ..
                    } => {
                        got += 1;
                        captures += 1;
                        assert!(count >= 1);
                        let victim = victim.expect("a capture on the board has a victim");
                        assert_ne!(victim, owner);
                    }
                    Event::Bonus { .. } => bonuses += 1,
                    _ => {}
                }
            }
            assert_eq!(got, want_captures);
            assert_eq!(
                events
                    .iter()
                    .filter(|e| matches!(e, Event::Bonus { .. }))
                    .count(),
                want_bonuses
            );
        }
    }
    assert!(
        captures > 10 && bonuses > 10,
        "{captures} captures, {bonuses} bonuses"
    );
}

#[test]
fn forfeits_penalties_and_extra_rolls_are_events() {
    // Third doubles in a row: the penalty, before any move.
    let mut g = Game::from_preset("parcheesi", 1).unwrap();
    let mut seen_penalty = false;
    for _ in 0..3 {
        g.set_roll(Roll::Dice([5, 5])).unwrap();
        if g.events().contains(&Event::Penalty { seat: 0 }) {
            seen_penalty = true;
            break;
        }
        assert!(
            g.events()
                .iter()
                .all(|e| !matches!(e, Event::Forfeit { .. }))
        );
        g.play_index(0).unwrap();
        assert!(g.events().contains(&Event::ExtraRoll { seat: 0 }));
    }
    assert!(seen_penalty, "the third doubles are punished");
    assert_eq!(g.to_move(), 1);
    // A roll that cannot enter any piece is forfeited by the roll itself.
    let mut g = Game::from_preset("parcheesi", 1).unwrap();
    g.set_roll(Roll::Dice([2, 1])).unwrap();
    assert_eq!(
        g.events(),
        &[
            Event::Roll {
                seat: 0,
                roll: Roll::Dice([2, 1])
            },
            Event::Forfeit { seat: 0 }
        ]
    );
}

#[test]
fn equal_positions_have_equal_hashes() {
    let mut seen = std::collections::HashMap::new();
    for seed in 0..4 {
        let mut g = Game::from_preset("backgammon", seed).unwrap();
        while !g.is_over() {
            let h = g.position_hash();
            assert_eq!(h, g.clone().position_hash());
            if let Some(other) = seen.insert(h, g.clone()) {
                let other: Game = other;
                if other.same_position(&g) {
                    assert_eq!(other.position_hash(), h);
                }
            }
            if g.is_chance_node() {
                g.roll().unwrap();
            } else {
                g.play_index(0).unwrap();
            }
            let (h_after, b) = (g.position_hash(), g.clone());
            g.undo().unwrap();
            assert_eq!(g.position_hash(), h, "undo restores the hash");
            g.redo().unwrap();
            assert!(g.same_position(&b) && g.position_hash() == h_after);
        }
    }
    // The order of two dice is no part of the position: 3-5 and 5-3 are one roll, at the
    // decision and after a step of it.
    for preset in [
        "backgammon",
        "parcheesi",
        "pachisi-family",
        "pachisi-online",
    ] {
        let rules = pachisi::Rules::preset(preset).unwrap();
        let mut start = Game::new(&rules, 1);
        if preset == "backgammon" {
            // Backgammon's opening roll is one die per seat, so there the order says who starts.
            start.set_roll(Roll::Dice([3, 5])).unwrap();
            start.play_index(0).unwrap();
        }
        let (mut a, mut b) = (start.clone(), start.clone());
        // The Pachisi games need a 5 to enter.
        let first = [5, 3];
        a.set_roll(Roll::Dice(first)).unwrap();
        b.set_roll(Roll::Dice([first[1], first[0]])).unwrap();
        assert!(a.same_position(&b), "{preset}");
        assert_eq!(a.position_hash(), b.position_hash(), "{preset}");
        if !a.is_chance_node() && !a.legal_steps().is_empty() {
            let step = a.legal_steps()[0];
            a.step(&step).unwrap();
            b.step(&step).unwrap();
            assert!(a.same_position(&b), "{preset} after a step");
            assert_eq!(
                a.position_hash(),
                b.position_hash(),
                "{preset} after a step"
            );
        }
        let mut c = start.clone();
        c.set_roll(Roll::Dice([4, 5])).unwrap();
        assert!(!a.same_position(&c), "{preset}: another roll");
    }
    let a = Game::from_preset("parcheesi", 1).unwrap();
    let b = Game::from_preset("pachisi-online", 1).unwrap();
    assert!(!a.same_position(&b), "other rules, other position");
    assert!(!a.same_position(&Game::from_preset("backgammon", 1).unwrap()));
}

/// A Parcheesi game 100 actions in.
fn mid_game() -> Game {
    let mut g = Game::from_preset("parcheesi", 9).unwrap();
    while g.history_len() < 100 {
        if g.is_chance_node() {
            g.roll().unwrap();
        } else {
            g.play_index(g.legal_plays().len() / 2).unwrap();
        }
    }
    assert!(!g.is_over());
    g
}

#[test]
fn a_copy_of_a_mid_game_parcheesi_game_takes_at_most_1_kb() {
    let g = mid_game();
    let (copy, heap) = heap_bytes_of(|| g.clone());
    let inline = std::mem::size_of::<Game>();
    println!("copy: {inline} bytes inline + {heap} bytes of heap");
    assert!(inline + heap <= 1024, "{inline} + {heap}");
    // The first action after a copy adds one record; it does not copy the history.
    let mut copy = copy;
    let (_, heap) = heap_bytes_of(|| {
        if copy.is_chance_node() {
            copy.roll().unwrap();
        } else {
            copy.play_index(0).unwrap();
        }
    });
    println!("first action after the copy: {heap} bytes of heap");
    assert!(heap < 4096, "{heap}");
    assert_eq!(copy.history_len(), g.history_len() + 1);
}
